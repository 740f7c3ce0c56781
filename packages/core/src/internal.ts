/**
 * @signcraft/core/internal: the services and hooks signcraft's own reference server and
 * adapters build on (fast reads, pruning, demo data). Not a stable API: anything here may
 * change in any release.
 */
export * from "./domain/credentials/api-key.js"
export { hashPassword, verifyPassword } from "./domain/credentials/password.js"
export { DEPRECATED_AT_UNIX, SUNSET_HTTP_DATE, deprecationHeaders } from "./http/deprecation.js"
export { describeFailure, type FailureDescription } from "./presenters/failure-table.js"
export type { FastAnswer, FastReads, FastReadsSlot, IncomingHeaders } from "./http/fast-reads.js"
export { Customisers, type CustomiserRecord, type NewCustomiser, type PricingDecision, type PricingReplacement, type StoredPricing } from "./services/pricing/customisers.js"
export { type CachedPricing, PRICING_CHANNEL, PricingCache } from "./services/pricing/cache.js"
export { ChangeSignals } from "./storage/change-signals.js"
export { Outbox, type EventTopic, type RecordedEvent } from "./services/webhooks/outbox.js"
export { checkDeliveryUrl, isForbiddenAddress, type DeliveryUrlFault } from "./domain/outbound/delivery-url.js"
export { DeliveryUrlGuard } from "./services/outbound/delivery-url-guard.js"
export { Quotes, type FormSubmission, type QuoteRecord } from "./services/commerce/quotes.js"
export { WebhookDeliveries, type AttemptRecord, type ClaimedDelivery, type DeliveryRecord } from "./services/webhooks/deliveries.js"
export { WebhookSubscriptions, type SubscriptionRecord } from "./services/webhooks/subscriptions.js"
export { WebhookEvents } from "./services/webhooks/events.js"
export { WebhookHealth } from "./services/webhooks/health.js"
export { WebhookReplay } from "./services/webhooks/replay.js"
export { Credentials, type IssuedApiKey } from "./services/credentials/credentials.js"
export { DeprecatedUsage, type UsageRecord } from "./services/requests/deprecated-usage.js"
export { HeldKey, IdempotencyStore, RETENTION_MS as IDEMPOTENCY_RETENTION_MS } from "./services/requests/idempotency.js"
export { CursorKey } from "./services/credentials/cursor-key.js"
export { Identity, type Company, type Person } from "./services/credentials/identity.js"
export type { Store } from "./domain/credentials/principal.js"
export { RateLimiter, type Admission } from "./services/requests/rate-limiter.js"
export { makeMetrics, Metrics, type DeliveryOutcome, type MetricsRecorder, type ScrapedFigures } from "./services/operations/metrics.js"
export { Readiness } from "./services/operations/readiness.js"
export { layerAppSpanNames } from "./app.js"
export { OAuthClients, type OAuthClient } from "./services/oauth/clients.js"
export { OAuthGrants, type AgentPrincipal, type Connection, type TokenResponse } from "./services/oauth/grants.js"
export { OAuthSessions, type ConnectableStore, type PersonSession } from "./services/oauth/sessions.js"
export { AccessTokenSigner, type AccessTokenClaims } from "./services/oauth/tokens.js"
export { SecretBox } from "./services/credentials/secret-box.js"
export { pruneRetained, RETENTION_BATCH, type RetentionCounts } from "./services/operations/retention.js"
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
} from "./services/outbound/outbound-http.js"
export { Analytics } from "./services/commerce/analytics.js"
export { Designs, type AcceptedDesign, type FinishedDesign } from "./services/commerce/designs.js"
export { Integrations, newSigningSecret, type IntegrationRecord } from "./services/commerce/integrations.js"
export { Orders, toOrderRecord, type ImportedOrder } from "./services/commerce/orders.js"
export type { OrderDraft, OrderSource, OrderWriteOptions, StoredLineItem, StoredOrder } from "./domain/orders/stored-order.js"
export { Products, toProductRecord, type ImportedProduct } from "./services/commerce/products.js"
export type { NewProduct, ProductDetails, ProductKind, StoredProduct } from "./domain/orders/stored-product.js"
