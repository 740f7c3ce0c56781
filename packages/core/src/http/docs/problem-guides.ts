import {
  type ApiFailure,
  IdempotencyKeyConflict,
  IdempotencyKeyInFlight,
  IdempotencyKeyRequired,
  InsufficientScope,
  IntegrationCallbackFailed,
  InternalError,
  InvalidCredential,
  InvalidParameter,
  MalformedRequest,
  MethodNotAllowed,
  MissingCredential,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  UnsupportedMediaType,
  ValidationFailed
} from "../../domain/errors.js"
import type { ProblemCode } from "../../presenters/failure-table.js"

/** What the documentation page of one problem code says. */
export interface ProblemGuide {
  /** What the code means. */
  readonly meaning: string
  /** When the service answers it. */
  readonly when: string
  /** What a client should do about it. */
  readonly recover: string
  /** A failure that answers with this code; the page shows its problem document. */
  readonly example: ApiFailure
}

/** The page of every problem code: the `type` of a problem document links to it. */
export const PROBLEM_GUIDES: { readonly [C in ProblemCode]: ProblemGuide } = {
  missing_api_key: {
    meaning: "The request carries no API key.",
    when: "A v3 (or v2) request has no `Authorization` header, or one that is not `Bearer <key>`.",
    recover: "Send the Store's API key as `Authorization: Bearer sk_live_…` (or `sk_test_…`). Keys are created in the dashboard (operator API) and shown once.",
    example: new MissingCredential({ kind: "api_key" })
  },
  invalid_api_key: {
    meaning: "The API key is unknown, malformed, expired or revoked.",
    when: "The bearer value is not a key this service issued, or the key was revoked or has expired. Revocation takes effect everywhere within a second.",
    recover: "Do not retry with the same key. Ask the merchant for a new key; check for stray whitespace or a key from another environment (test and live keys are different).",
    example: new InvalidCredential({ kind: "api_key", reason: "revoked" })
  },
  missing_operator_token: {
    meaning: "An operator API request carries no operator token.",
    when: "A request to `/operator/…` has no `Authorization: Bearer <token>` header.",
    recover: "Send the deployment's `OPERATOR_TOKEN` as a Bearer token. The operator API exists only when that setting is set.",
    example: new MissingCredential({ kind: "operator_token" })
  },
  invalid_operator_token: {
    meaning: "The operator token is not the deployment's.",
    when: "The bearer value differs from `OPERATOR_TOKEN`.",
    recover: "Use the token the deployment was started with.",
    example: new InvalidCredential({ kind: "operator_token", reason: "unknown" })
  },
  missing_metrics_token: {
    meaning: "A scrape of `/metrics` carries no metrics token.",
    when: "`GET /metrics` has no `Authorization: Bearer <token>` header while `METRICS_TOKEN` is set.",
    recover: "Configure the scraper with the deployment's `METRICS_TOKEN` as its bearer token.",
    example: new MissingCredential({ kind: "metrics_token" })
  },
  invalid_metrics_token: {
    meaning: "The metrics token is not the deployment's.",
    when: "The bearer value of a `GET /metrics` differs from `METRICS_TOKEN`.",
    recover: "Use the token the deployment was started with.",
    example: new InvalidCredential({ kind: "metrics_token", reason: "unknown" })
  },
  insufficient_scope: {
    meaning: "The key is valid but lacks a scope the operation needs.",
    when: "The operation needs one of `required_scopes` and the key was granted only `granted_scopes`.",
    recover: "Ask the merchant for a key (or a connector grant) with one of the scopes in `required_scopes`. Retrying with the same key cannot succeed.",
    example: new InsufficientScope({ required: ["pricing:write"], granted: ["pricing:read", "customisers:read"] })
  },
  not_found: {
    meaning: "The resource does not exist, or belongs to another Store.",
    when: "The id in the path names nothing this key's Store owns, or the path segment is not an id at all (`0x3`, `01`). The service does not say which, so ids of other Stores cannot be probed.",
    recover: "Refresh your list of resources (the list endpoints) and use an id from it.",
    example: new NotFound({ resource: "customiser" })
  },
  validation_failed: {
    meaning: "The body violates its schema or a business rule.",
    when: "One or more fields are missing, of the wrong type, out of range, or not defined by the contract (`unknown_field`: a misspelt member is refused rather than ignored). Every fault is listed in `errors[]` with a JSON Pointer to the field.",
    recover: "Fix each field `errors[].pointer` names and send the request again. Never retry unchanged.",
    example: new ValidationFailed({
      errors: [
        { pointer: "/sizes/0/width_mm", code: "invalid_type", detail: "Must be a number." },
        { pointer: "/sizse", code: "unknown_field", detail: "This member is not defined by the contract; check its spelling." }
      ]
    })
  },
  invalid_pricing_model: {
    meaning: "The pricing document does not fit the customiser's pricing model.",
    when: "A pricing write does not fit the customiser's `pricing_model`, or the model is retired and takes no writes.",
    recover: "Read the customiser (`GET /api/v3/customisers/{id}`) for its `pricing_model` and send a document of that model.",
    example: new ValidationFailed({
      code: "invalid_pricing_model",
      detail: "The pricing document does not fit the customiser's pricing model.",
      errors: [{ pointer: "/price_lists", code: "invalid_value", detail: "Not used by this pricing model." }]
    })
  },
  invalid_parameter: {
    meaning: "A query or header parameter is invalid.",
    when: "A parameter such as `limit`, `cursor`, `from` or `to` is out of range or malformed; `errors[].parameter` names it. A cursor replayed on another collection, Store or filter is refused too.",
    recover: "Correct the parameter. For cursors, start again from the first page.",
    example: new InvalidParameter({ errors: [{ parameter: "limit", code: "invalid_value", detail: "Must be an integer from 1 to 100." }] })
  },
  malformed_request: {
    meaning: "The request cannot be parsed at all.",
    when: "The body is not valid JSON, the content type is not JSON, or a header such as `Idempotency-Key` is too long.",
    recover: "Send `Content-Type: application/json` and a well-formed JSON body.",
    example: new MalformedRequest({ detail: "The request body is not valid JSON." })
  },
  method_not_allowed: {
    meaning: "The path exists, but not with this method.",
    when: "For example `DELETE /api/v3/customisers/1`. The `Allow` header lists the methods the path answers.",
    recover: "Use one of the methods in `Allow`.",
    example: new MethodNotAllowed({ allowed: ["GET", "HEAD"] })
  },
  payload_too_large: {
    meaning: "The body is larger than the service accepts (1 MiB by default).",
    when: "The declared or streamed body exceeds the limit. The server closes the connection after answering, so the client's next request uses a fresh one.",
    recover: "Send a smaller body. Pricing documents of this size usually hold rows that can be merged; split bulk imports.",
    example: new PayloadTooLarge({ limitBytes: 1_048_576 })
  },
  unsupported_media_type: {
    meaning: "The body is in a media type the operation does not read.",
    when: "A write sent with a `Content-Type` other than `application/json` (pricing PATCH also takes `application/merge-patch+json`).",
    recover: "Send the body as JSON with `Content-Type: application/json`.",
    example: new UnsupportedMediaType()
  },
  rate_limited: {
    meaning: "A quota is spent until the window resets.",
    when: "The key's quota (per minute) or the client address's quota is exhausted. `Retry-After` and `retry_after` say when to come back; v3 responses carry `RateLimit` headers all along.",
    recover: "Wait `Retry-After` seconds, then retry. Spread requests over the minute instead of bursting.",
    example: new RateLimited({ retryAfter: 12 })
  },
  idempotency_key_required: {
    meaning: "This write needs an `Idempotency-Key` header.",
    when: "A pricing PUT or PATCH, or another write documented as requiring a key, came without one.",
    recover: "Generate a random key (a UUID) per logical write, send it, and reuse it when you retry that same write.",
    example: new IdempotencyKeyRequired()
  },
  idempotency_key_conflict: {
    meaning: "The key was used before with a different request.",
    when: "The same `Idempotency-Key` arrives with another method, path or body within 24 hours.",
    recover: "Use a new key for a new write. Reuse a key only to retry the identical request.",
    example: new IdempotencyKeyConflict()
  },
  idempotency_key_in_flight: {
    meaning: "The first request with this key is still being served.",
    when: "A retry arrives while the original request has not finished.",
    recover: "Wait `Retry-After` seconds and retry with the same key: you will get the original's answer.",
    example: new IdempotencyKeyInFlight({ retryAfter: 1 })
  },
  integration_callback_failed: {
    meaning: "The integration's create-product URL did not take the finished design.",
    when: "The call to the Store's integration timed out, failed, answered other than 200, or answered without `external_id`. The design is kept as a product.",
    recover: "Fix the integration endpoint; the product named in `detail` can be synced again. Shoppers should be told to try again later.",
    example: new IntegrationCallbackFailed({ productId: 42, reason: "timed out after 10 s" })
  },
  service_unavailable: {
    meaning: "The service is running but cannot reach its database just now.",
    when: "The database is restarting or unreachable; nothing was written by this request.",
    recover: "Wait `Retry-After` seconds and send the same request again (with the same `Idempotency-Key` for writes).",
    example: new ServiceUnavailable({ retryAfter: 5 })
  },
  internal_error: {
    meaning: "The service failed to complete the request.",
    when: "Something failed on the server's side; the cause is in the server's log under the `request_id`.",
    recover: "Retry with exponential backoff (and the same `Idempotency-Key` for writes). If it persists, report the `request_id`.",
    example: new InternalError({})
  }
}
