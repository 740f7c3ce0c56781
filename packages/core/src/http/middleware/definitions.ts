import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { ApiKeyPrincipal } from "../../domain/credentials/principal.js"
import { legacyErrorsAt, problemsAt } from "../failure-codecs.js"

/** The API key of the request, provided by {@link ApiKeyAuth} and {@link LegacyApiKeyAuth}. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, ApiKeyPrincipal>()(
  "signcraft/CurrentPrincipal"
) {}

// RFC 9110 §11.1 makes the scheme name case-insensitive (the check accepts any case), but
// OpenAPI tools compare it to the lowercase IANA spelling: Scalar reads `Bearer` as Basic.
const bearer = (description: string) =>
  HttpApiSecurity.http({ scheme: "bearer" }).pipe(HttpApiSecurity.annotate(OpenApi.Description, description))

const apiKeyScheme = bearer(
  "A secret API key (`sk_live_…` or `sk_test_…`) sent as `Authorization: Bearer <key>`. Each operation " +
    "lists the scopes of which the key needs one."
)

// The failures each middleware raises itself; HttpApi encodes them with the endpoint's format.
const keyFailures = [401, 403, 429] as const
const requestFailures = [400, 404, 413, 422, 500] as const

/** v3: authenticates the API key, applies quotas and the endpoint's scope. */
export class ApiKeyAuth extends HttpApiMiddleware.Service<ApiKeyAuth, { provides: CurrentPrincipal }>()(
  "signcraft/ApiKeyAuth",
  { security: { apiKey: apiKeyScheme }, error: problemsAt(keyFailures) }
) {}

/** Previous generation: the same checks, failing in the `{message, errors}` format. */
export class LegacyApiKeyAuth extends HttpApiMiddleware.Service<LegacyApiKeyAuth, { provides: CurrentPrincipal }>()(
  "signcraft/LegacyApiKeyAuth",
  { security: { apiKey: apiKeyScheme }, error: legacyErrorsAt(keyFailures) }
) {}

/** Operator API: the `OPERATOR_TOKEN` bearer; the whole API is hidden (404) when unset. */
export class OperatorAuth extends HttpApiMiddleware.Service<OperatorAuth>()("signcraft/OperatorAuth", {
  security: { operatorToken: bearer("The deployment's `OPERATOR_TOKEN`, sent as `Authorization: Bearer <token>`.") },
  error: problemsAt([401, 404, 429])
}) {}

/**
 * Innermost on every group: turns what decoding the request raised (schema faults as 422 with
 * pointers, bad JSON as 400, oversized bodies as 413) and any defect (500) into failures.
 */
export class RequestFailures extends HttpApiMiddleware.Service<RequestFailures>()("signcraft/RequestFailures", {
  error: problemsAt(requestFailures)
}) {}

/** The same for previous-generation groups, in the legacy error body. */
export class LegacyRequestFailures extends HttpApiMiddleware.Service<LegacyRequestFailures>()(
  "signcraft/LegacyRequestFailures",
  { error: legacyErrorsAt(requestFailures) }
) {}

/** Public endpoints (health, storefront): the per-IP quota only. */
export class PublicAccess extends HttpApiMiddleware.Service<PublicAccess>()("signcraft/PublicAccess", {
  error: problemsAt([429])
}) {}

/** Writes that honour `Idempotency-Key` (replay, conflict, in-flight). */
export class IdempotentWrites extends HttpApiMiddleware.Service<IdempotentWrites, { requires: CurrentPrincipal }>()(
  "signcraft/IdempotentWrites",
  { error: problemsAt([400, 409, 413, 500]) }
) {}
