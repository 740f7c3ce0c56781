/**
 * @signcraft/core/api: the HTTP contract alone (the `SigncraftApi` definition, the problem
 * codes and webhook verification), for clients. It loads no database driver, no service and
 * no agent SDK.
 */
export { SigncraftApi } from "./http/api/index.js"
export {
  ApiKeyAuth,
  CurrentPrincipal,
  IdempotentWrites,
  LegacyApiKeyAuth,
  LegacyRequestFailures,
  OperatorAuth,
  PublicAccess,
  RequestFailures
} from "./http/middleware/definitions.js"
export { PROBLEM_CODES, type ProblemCode } from "./presenters/failure-table.js"
export type { ApiKeyPrincipal } from "./domain/credentials/principal.js"
export { verifyWebhook, type VerifyWebhookInput, type WebhookVerification } from "./domain/webhooks/signature.js"
export {
  type StandardVerification,
  verifyStandardWebhook,
  type VerifyStandardWebhookInput
} from "./domain/webhooks/standard-signature.js"
export { parseRetryAfterMs } from "./domain/outbound/retry-after.js"
