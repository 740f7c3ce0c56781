/**
 * @signcraft/core: the signcraft domain, its services over `SqlClient`, and the HTTP
 * app, exported as Effect layers and as a web-standard `(Request) => Promise<Response>`.
 */
export {
  layerAgentApp,
  layerApp,
  layerOAuthServices,
  layerServices,
  makeAgentWebHandler,
  makeWebHandler,
  type AppOptions
} from "./app.js"
export { defineTool, type AgentTool, type AgentToolHints, type ToolDefinition } from "./agent/tool.js"
export { agentTools } from "./agent/tools/index.js"
export * as oauth from "./domain/oauth/index.js"
export * from "./domain/api-key.js"
export * from "./domain/errors.js"
export * from "./domain/field-error.js"
export * from "./domain/scopes.js"
export { hashPassword, verifyPassword } from "./domain/password.js"
export { DEPRECATED_AT_UNIX, SUNSET_HTTP_DATE, deprecationHeaders } from "./http/deprecation.js"
export { describeFailure, PROBLEM_CODES, type ProblemCode, type FailureDescription } from "./http/failure-table.js"
export { openApiDocument } from "./http/docs.js"
export type { RequestLogger } from "./http/router-middleware.js"
export { SigncraftApi } from "./http/api/index.js"
export { Credentials, type ApiKeyPrincipal, type IssuedApiKey } from "./services/credentials.js"
export { DeprecatedUsage, type UsageRecord } from "./services/deprecated-usage.js"
export { IdempotencyStore, RETENTION_MS as IDEMPOTENCY_RETENTION_MS } from "./services/idempotency.js"
export { Identity, type Company, type Person, type Store } from "./services/identity.js"
export { RateLimiter, type Admission } from "./services/rate-limiter.js"
export { OAuthClients, type OAuthClient } from "./services/oauth-clients.js"
export {
  OAuthGrants,
  type AgentPrincipal,
  type Connection,
  type TokenResponse
} from "./services/oauth-grants.js"
export { OAuthSessions, type ConnectableStore, type PersonSession } from "./services/oauth-sessions.js"
export { AccessTokenSigner, type AccessTokenClaims } from "./services/oauth-tokens.js"
export { Settings, defaultSettings, type Environment, type ServiceSettings } from "./services/settings.js"
export { layerDatabase, migrate, type DatabaseConfig } from "./storage/database.js"
export { layerEmbedded, type EmbeddedLocation } from "./storage/embedded.js"
export { layerPostgres } from "./storage/postgres.js"
export * as analytics from "./domain/analytics/index.js"
export * as currency from "./domain/currency.js"
export * as orders from "./domain/orders/index.js"
export * as webhooks from "./domain/webhooks/index.js"
