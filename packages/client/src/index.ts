/**
 * @signcraft/client: the integrator client (docs/client-and-cli.md), for Node 20 and later.
 * Plain Promises; Effect users can also use `@signcraft/client/effect`.
 */
export { type AttemptEvent, type Query, type RequestOptions, SigncraftClient, type SigncraftClientOptions, type SigncraftResponse } from "./client.js"
export { type Clock, systemClock } from "./clock.js"
export { fillPath, makeV3Operations, type OperationInput, type OperationOutput, type V3GroupName, type V3Operations } from "./operations.js"
export {
  isKnownProblemCode,
  type ProblemFieldError,
  SigncraftProblem,
  type SigncraftProblemCode
} from "./problem.js"
export {
  type AttemptOutcome,
  type Backoff,
  backoffDelayMs,
  decideRetry,
  DEFAULT_BACKOFF,
  isWrite,
  parseRetryAfterMs,
  type RetryDecision,
  type RetryInput
} from "./retry-policy.js"
export {
  type StandardVerification,
  verifyStandardWebhook,
  type VerifyStandardWebhookInput,
  verifyWebhook,
  type VerifyWebhookInput,
  type WebhookVerification
} from "@signcraft/core/api"
