import { match } from "ts-pattern"
import type { ApiFailure, ApiFailureTag } from "../domain/errors.js"
import type { FieldError } from "../domain/input/field-error.js"

/** Every `code` a problem document can carry: branch on these, never on `title` or `detail`. */
export const PROBLEM_CODES = [
  "missing_api_key",
  "invalid_api_key",
  "missing_operator_token",
  "invalid_operator_token",
  "missing_metrics_token",
  "invalid_metrics_token",
  "insufficient_scope",
  "not_found",
  "validation_failed",
  "invalid_pricing_model",
  "invalid_parameter",
  "malformed_request",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "idempotency_key_required",
  "idempotency_key_conflict",
  "idempotency_key_in_flight",
  "integration_callback_failed",
  "service_unavailable",
  "internal_error"
] as const

/** One stable problem code. */
export type ProblemCode = (typeof PROBLEM_CODES)[number]

/** How one failure appears on the wire, before a generation's format is applied. */
export interface FailureDescription {
  readonly status: number
  readonly code: ProblemCode
  readonly title: string
  readonly detail: string
  readonly errors?: ReadonlyArray<FieldError>
  readonly retryAfter?: number
  readonly requiredScopes?: ReadonlyArray<string>
  readonly grantedScopes?: ReadonlyArray<string>
  /** The methods the path has, for the `Allow` header of a 405. */
  readonly allow?: ReadonlyArray<string>
}

/**
 * The HTTP status of each failure. One status per failure, so an endpoint can declare which
 * failures it answers by listing statuses, and the compiler checks its handler against them.
 */
export const FAILURE_STATUS = {
  MissingCredential: 401,
  InvalidCredential: 401,
  InsufficientScope: 403,
  NotFound: 404,
  ValidationFailed: 422,
  InvalidParameter: 422,
  MalformedRequest: 400,
  MethodNotAllowed: 405,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  RateLimited: 429,
  IdempotencyKeyRequired: 400,
  IdempotencyKeyConflict: 409,
  IdempotencyKeyInFlight: 409,
  IntegrationCallbackFailed: 502,
  ServiceUnavailable: 503,
  InternalError: 500
} as const satisfies Record<ApiFailureTag, number>

/** A status some failure answers with. */
export type FailureStatus = (typeof FAILURE_STATUS)[ApiFailureTag]

/** The failures that answer with status `S`. */
export type FailureWithStatus<S extends FailureStatus> = Extract<
  ApiFailure,
  { readonly _tag: { [T in ApiFailureTag]: (typeof FAILURE_STATUS)[T] extends S ? T : never }[ApiFailureTag] }
>

type Wording = Omit<FailureDescription, "status">

/** The single table from domain failures to HTTP status, code and wording. */
export const describeFailure = (failure: ApiFailure): FailureDescription => ({
  status: FAILURE_STATUS[failure._tag],
  ...wordingOf(failure)
})

const wordingOf = (failure: ApiFailure): Wording =>
  match(failure)
    .returnType<Wording>()
    .with({ _tag: "MissingCredential", kind: "api_key" }, () => ({
      code: "missing_api_key",
      title: "Missing API key",
      detail: "Send your API key as `Authorization: Bearer <key>`."
    }))
    .with({ _tag: "MissingCredential", kind: "operator_token" }, () => ({
      code: "missing_operator_token",
      title: "Missing operator token",
      detail: "Send the operator token as `Authorization: Bearer <token>`."
    }))
    .with({ _tag: "MissingCredential", kind: "metrics_token" }, () => ({
      code: "missing_metrics_token",
      title: "Missing metrics token",
      detail: "Send the metrics token as `Authorization: Bearer <token>`."
    }))
    .with({ _tag: "InvalidCredential", kind: "api_key" }, (f) => ({
      code: "invalid_api_key",
      title: "Invalid API key",
      detail: f.reason === "revoked"
        ? "This API key has been revoked."
        : f.reason === "expired"
        ? "This API key has expired."
        : f.reason === "connector_token"
        ? "This is a connector access token: it is accepted only by the agent endpoint (`/mcp`). The REST API takes an API key (`sk_live_…` or `sk_test_…`)."
        : "The API key is not valid."
    }))
    .with({ _tag: "InvalidCredential", kind: "operator_token" }, () => ({
      code: "invalid_operator_token",
      title: "Invalid operator token",
      detail: "The operator token is not valid."
    }))
    .with({ _tag: "InvalidCredential", kind: "metrics_token" }, () => ({
      code: "invalid_metrics_token",
      title: "Invalid metrics token",
      detail: "The metrics token is not valid."
    }))
    .with({ _tag: "InsufficientScope" }, (f) => ({
      code: "insufficient_scope",
      title: "Insufficient scope",
      detail: f.required.length === 1
        ? `This operation needs the scope ${f.required.join("")}.`
        : `This operation needs one of the scopes ${f.required.join(", ")}.`,
      requiredScopes: f.required,
      grantedScopes: f.granted
    }))
    .with({ _tag: "NotFound" }, (f) => ({
      code: "not_found",
      title: "Not found",
      detail: `No such ${f.resource}.`
    }))
    .with({ _tag: "ValidationFailed" }, (f) => {
      const code = f.code ?? "validation_failed"
      return {
        code,
        title: code === "invalid_pricing_model" ? "Invalid pricing model" : "Validation failed",
        detail: f.detail ?? `The request has ${f.errors.length} invalid field${f.errors.length === 1 ? "" : "s"}.`,
        errors: f.errors
      }
    })
    .with({ _tag: "InvalidParameter" }, (f) => ({
      code: "invalid_parameter",
      title: "Invalid parameter",
      detail: `The request has ${f.errors.length} invalid parameter${f.errors.length === 1 ? "" : "s"}.`,
      errors: f.errors
    }))
    .with({ _tag: "MalformedRequest" }, (f) => ({
      code: "malformed_request",
      title: "Malformed request",
      detail: f.detail
    }))
    .with({ _tag: "MethodNotAllowed" }, (f) => ({
      code: "method_not_allowed",
      title: "Method not allowed",
      detail: `This path answers ${f.allowed.join(", ")}.`,
      allow: f.allowed
    }))
    .with({ _tag: "PayloadTooLarge" }, (f) => ({
      code: "payload_too_large",
      title: "Payload too large",
      detail: `Request bodies are limited to ${f.limitBytes} bytes.`
    }))
    .with({ _tag: "UnsupportedMediaType" }, () => ({
      code: "unsupported_media_type",
      title: "Unsupported media type",
      detail: "Send the request body as application/json (or the media type the operation documents)."
    }))
    .with({ _tag: "RateLimited" }, (f) => ({
      code: "rate_limited",
      title: "Rate limited",
      detail: `Too many requests; retry after ${f.retryAfter} seconds.`,
      retryAfter: f.retryAfter
    }))
    .with({ _tag: "IdempotencyKeyRequired" }, () => ({
      code: "idempotency_key_required",
      title: "Idempotency key required",
      detail: "This operation requires an `Idempotency-Key` header."
    }))
    .with({ _tag: "IdempotencyKeyConflict" }, () => ({
      code: "idempotency_key_conflict",
      title: "Idempotency key conflict",
      detail: "This Idempotency-Key was used with a different request; use a new key."
    }))
    .with({ _tag: "IdempotencyKeyInFlight" }, (f) => ({
      code: "idempotency_key_in_flight",
      title: "Idempotency key in flight",
      detail: "The first request with this Idempotency-Key is still running; retry later with the same key.",
      retryAfter: f.retryAfter
    }))
    .with({ _tag: "IntegrationCallbackFailed" }, (f) => ({
      code: "integration_callback_failed",
      title: "Integration callback failed",
      // Why the integrator refused (its status, its network) is the Store's business, not the
      // shopper's: the reason goes to the log with the request id, never into the answer.
      detail: `The store's integration did not accept the design; it is kept as product ${f.productId}. ` +
        "The store can find the reason in the service's log under this request id."
    }))
    .with({ _tag: "ServiceUnavailable" }, (f) => ({
      code: "service_unavailable",
      title: "Service unavailable",
      detail: `The service cannot reach its database just now; retry after ${f.retryAfter} seconds.`,
      retryAfter: f.retryAfter
    }))
    .with({ _tag: "InternalError" }, () => ({
      code: "internal_error",
      title: "Internal server error",
      detail: "The server failed to complete the request; retry with backoff."
    }))
    .exhaustive()
