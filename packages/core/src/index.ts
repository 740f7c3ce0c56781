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
export { describeFailure, PROBLEM_CODES, type ProblemCode, type FailureDescription } from "./presenters/failure-table.js"
export { openApiDocument } from "./http/docs.js"
export type { RequestLogger } from "./http/router-middleware.js"
export type { FastAnswer, FastReads, FastReadsSlot, IncomingHeaders } from "./http/fast-reads.js"
export { ClientAddress, clientAddressContext } from "./http/request-info.js"
export { SigncraftApi } from "./http/api/index.js"
export { Customisers, type CustomiserRecord, type NewCustomiser, type PricingDecision, type PricingReplacement, type StoredPricing } from "./services/customisers.js"
export { type CachedPricing, PRICING_CHANNEL, PricingCache } from "./services/pricing-cache.js"
export { ChangeSignals } from "./storage/change-signals.js"
export { Outbox, type EventTopic, type RecordedEvent } from "./services/outbox.js"
export { layerWebhookServices } from "./app.js"
export { verifyWebhook, type VerifyWebhookInput, type WebhookVerification } from "./domain/webhooks/signature.js"
export { checkDeliveryUrl, isForbiddenAddress, type DeliveryUrlFault } from "./domain/delivery-url.js"
export { DeliveryUrlGuard } from "./services/delivery-url-guard.js"
export { DeliveryWorker, layerDeliveryLoop, type DeliveryWorkerOptions } from "./services/delivery-worker.js"
export { webhookIdOf } from "./domain/webhooks/webhook-id.js"
export { Quotes, type FormSubmission, type QuoteRecord } from "./services/quotes.js"
export { WebhookDeliveries, type AttemptRecord, type ClaimedDelivery, type DeliveryRecord } from "./services/webhook-deliveries.js"
export { WebhookSubscriptions, type SubscriptionRecord } from "./services/webhook-subscriptions.js"
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
export { Settings, defaultSettings, productionFaults, type Environment, type ServiceSettings, type SettingsInput } from "./services/settings.js"
export { SecretBox } from "./services/secret-box.js"
export { pruneRetained, RETENTION_BATCH, type RetentionCounts } from "./services/retention.js"
export { parseKeyring } from "./domain/secret-box.js"
export { clientAddressOf, parseTrustProxy, quotaAddress, TRUST_NO_PROXY, type TrustProxy } from "./domain/client-address.js"
export { parseDisabledParts, SWITCHABLE_PARTS, type SwitchablePart } from "./domain/switches.js"
export { layerDatabase, migrate, type DatabaseConfig } from "./storage/database.js"
export { layerEmbedded, type EmbeddedLocation } from "./storage/embedded.js"
export { layerPostgres } from "./storage/postgres.js"
export * as analytics from "./domain/analytics/index.js"
export * as currency from "./domain/currency.js"
export * as orders from "./domain/orders/index.js"
export * as webhooks from "./domain/webhooks/index.js"
export * as pricing from "./domain/pricing/index.js"
export * from "./domain/enums.js"
export { applyMergePatch } from "./domain/merge-patch.js"
export {
  OUTBOUND_MAX_RESPONSE_BYTES,
  OUTBOUND_TIMEOUT_MS,
  OutboundHttp,
  OutboundHttpFailed,
  outboundPolicy,
  type OutboundHttpOptions,
  type OutboundPolicy,
  type OutboundRequest,
  type OutboundResponse
} from "./services/outbound-http.js"
export { Analytics } from "./services/analytics.js"
export { Designs, type AcceptedDesign, type FinishedDesign } from "./services/designs.js"
export { Integrations, newSigningSecret, type IntegrationRecord } from "./services/integrations.js"
export { Orders, toOrderRecord, type ImportedOrder, type OrderSource, type OrderWriteOptions, type StoredLineItem, type StoredOrder } from "./services/orders.js"
export { Products, toProductRecord, type ImportedProduct, type NewProduct, type ProductDetails, type ProductKind, type StoredProduct } from "./services/products.js"
