/**
 * @signcraft/core: what a host needs to run signcraft inside its own backend: the app as
 * Effect layers and as a web-standard `(Request) => Promise<Response>`, its settings, the
 * database layer, and the pure rules of `@signcraft/core/domain`.
 *
 * Lighter entries: `@signcraft/core/domain` (rules only), `@signcraft/core/api` (the HTTP
 * contract only), `@signcraft/core/postgres` and `@signcraft/core/embedded` (one storage
 * layer each). `@signcraft/core/internal` serves signcraft's own server and carries no
 * compatibility promise.
 */
export {
  layerAgentApp,
  layerApp,
  layerOAuthServices,
  layerServices,
  layerWebhookServices,
  makeAgentWebHandler,
  makeWebHandler,
  type AppOptions
} from "./app.js"
export { defineTool, type AgentTool, type AgentToolHints, type ToolDefinition } from "./agent/tool.js"
export { agentTools } from "./agent/tools/index.js"
export { Settings, defaultSettings, productionFaults, type Environment, type ServiceSettings, type SettingsInput } from "./services/settings.js"
export { layerDatabase, migrate, type DatabaseConfig } from "./storage/database.js"
export type { EmbeddedLocation } from "./storage/embedded.js"
export { DeliveryWorker, layerDeliveryLoop, type DeliveryWorkerOptions } from "./services/webhooks/delivery-worker.js"
export { ClientAddress, clientAddressContext } from "./http/request-info.js"
export type { RequestLogger } from "./http/router-middleware.js"
export { openApiDocument } from "./http/docs.js"
export { parseKeyring } from "./domain/credentials/secret-box.js"
export { clientAddressOf, parseTrustProxy, quotaAddress, TRUST_NO_PROXY, type TrustProxy } from "./domain/deployment/client-address.js"
export { parseDisabledParts, SWITCHABLE_PARTS, type SwitchablePart } from "./domain/deployment/switches.js"
export {
  DATABASE_SCHEMA_EXPECTED,
  DEFAULT_DATABASE_SCHEMA,
  InvalidDatabaseSchema,
  isDatabaseSchemaName
} from "./storage/database-schema.js"
export * from "./api.js"
export * from "./domain.js"
