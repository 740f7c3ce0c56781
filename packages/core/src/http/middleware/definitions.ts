import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import type { ApiKeyPrincipal } from "../../services/credentials.js"
import { legacyErrorAt, problemAt } from "../wire.js"

/** The API key of the request, provided by {@link ApiKeyAuth} and {@link LegacyApiKeyAuth}. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, ApiKeyPrincipal>()(
  "signcraft/CurrentPrincipal"
) {}

const v3Failures = [400, 401, 403, 404, 413, 422, 429, 500].map(problemAt)
const legacyFailures = [400, 401, 403, 404, 413, 422, 429, 500].map(legacyErrorAt)

/** v3: authenticates the API key, applies quotas and the endpoint's scope; answers problems. */
export class ApiKeyAuth extends HttpApiMiddleware.Service<ApiKeyAuth, { provides: CurrentPrincipal }>()(
  "signcraft/ApiKeyAuth",
  { security: { apiKey: HttpApiSecurity.bearer }, error: v3Failures }
) {}

/** Previous generation: the same checks, answered in the `{message, errors}` format. */
export class LegacyApiKeyAuth extends HttpApiMiddleware.Service<LegacyApiKeyAuth, { provides: CurrentPrincipal }>()(
  "signcraft/LegacyApiKeyAuth",
  { security: { apiKey: HttpApiSecurity.bearer }, error: legacyFailures }
) {}

/** Operator API: the `OPERATOR_TOKEN` bearer; the whole API is hidden (404) when unset. */
export class OperatorAuth extends HttpApiMiddleware.Service<OperatorAuth>()("signcraft/OperatorAuth", {
  security: { operatorToken: HttpApiSecurity.bearer },
  error: [400, 401, 404, 413, 422, 500].map(problemAt)
}) {}

/**
 * Innermost on every group: renders what decoding the request or running the handler
 * raised (schema faults as 422 with pointers, bad JSON as 400, oversized bodies as 413).
 */
export class RequestFailures extends HttpApiMiddleware.Service<RequestFailures>()("signcraft/RequestFailures", {
  error: [400, 404, 413, 422, 500].map(problemAt)
}) {}

/** The same for previous-generation groups, documented with the legacy error body. */
export class LegacyRequestFailures extends HttpApiMiddleware.Service<LegacyRequestFailures>()(
  "signcraft/LegacyRequestFailures",
  { error: [400, 404, 413, 422, 500].map(legacyErrorAt) }
) {}

/** Public endpoints (health, storefront): per-IP quota and problem rendering only. */
export class PublicAccess extends HttpApiMiddleware.Service<PublicAccess>()("signcraft/PublicAccess", {
  error: [400, 404, 413, 422, 429, 500].map(problemAt)
}) {}

/** Writes that honour `Idempotency-Key` (replay, conflict, in-flight). */
export class IdempotentWrites extends HttpApiMiddleware.Service<IdempotentWrites, { requires: CurrentPrincipal }>()(
  "signcraft/IdempotentWrites",
  { error: [problemAt(400), problemAt(409)] }
) {}
