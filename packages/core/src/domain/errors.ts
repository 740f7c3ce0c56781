import { Data } from "effect"
import type { FieldError } from "./input/field-error.js"
import type { Scope } from "./credentials/scopes.js"

/**
 * Every failure a client can be told about. Services fail with these; `presenters/failure-table.ts`
 * describes each (status, code, wording) and each generation's encoder renders that description.
 */

/** Which credential an API surface expects. */
export type CredentialKind = "api_key" | "operator_token" | "metrics_token"

/** No credential was sent. */
export class MissingCredential extends Data.TaggedError("MissingCredential")<{
  readonly kind: CredentialKind
}> {}

/**
 * The credential is unknown, malformed, expired or revoked, or is a connector access token
 * presented where an API key belongs.
 */
export class InvalidCredential extends Data.TaggedError("InvalidCredential")<{
  readonly kind: CredentialKind
  readonly reason: "unknown" | "malformed" | "expired" | "revoked" | "connector_token"
}> {}

/** The credential is valid but lacks a scope the operation needs. */
export class InsufficientScope extends Data.TaggedError("InsufficientScope")<{
  readonly required: ReadonlyArray<Scope>
  readonly granted: ReadonlyArray<Scope>
}> {}

/** The resource does not exist, or belongs to another Store. */
export class NotFound extends Data.TaggedError("NotFound")<{
  readonly resource: string
}> {}

/** A request body violated its schema or a business rule; `errors` names each fault. */
export class ValidationFailed extends Data.TaggedError("ValidationFailed")<{
  readonly code?: "validation_failed" | "invalid_pricing_model"
  readonly detail?: string
  readonly errors: ReadonlyArray<FieldError>
}> {}

/** A query or path parameter is invalid. */
export class InvalidParameter extends Data.TaggedError("InvalidParameter")<{
  readonly errors: ReadonlyArray<FieldError>
}> {}

/** The request could not be parsed at all (malformed JSON, wrong content type). */
export class MalformedRequest extends Data.TaggedError("MalformedRequest")<{
  readonly detail: string
}> {}

/** The path exists, but not with this method; `allowed` lists the methods it has. */
export class MethodNotAllowed extends Data.TaggedError("MethodNotAllowed")<{
  readonly allowed: ReadonlyArray<string>
}> {}

/** The body is in a media type the endpoint does not read. */
export class UnsupportedMediaType extends Data.TaggedError("UnsupportedMediaType")<Record<never, never>> {}

/** The body is larger than the service accepts. */
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{
  readonly limitBytes: number
}> {}

/** A quota is exhausted until `retryAfter` seconds have passed. */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly retryAfter: number
}> {}

/** A write that requires an `Idempotency-Key` header came without one. */
export class IdempotencyKeyRequired extends Data.TaggedError("IdempotencyKeyRequired")<Record<never, never>> {}

/** The `Idempotency-Key` was used before with another request. */
export class IdempotencyKeyConflict extends Data.TaggedError("IdempotencyKeyConflict")<Record<never, never>> {}

/** The first request with this `Idempotency-Key` is still running. */
export class IdempotencyKeyInFlight extends Data.TaggedError("IdempotencyKeyInFlight")<{
  readonly retryAfter: number
}> {}

/**
 * The integration's create-product URL did not take a finished design (network error, timeout,
 * non-200, no `external_id`). The design is kept as product `productId`.
 */
export class IntegrationCallbackFailed extends Data.TaggedError("IntegrationCallbackFailed")<{
  readonly productId: number
  readonly reason: string
}> {}

/**
 * The service cannot serve the request for now (its database is unreachable); nothing was
 * written, and the same request may be sent again after `retryAfter` seconds.
 */
export class ServiceUnavailable extends Data.TaggedError("ServiceUnavailable")<{
  readonly retryAfter: number
}> {}

/** An unexpected failure; the detail stays in the server log. */
export class InternalError extends Data.TaggedError("InternalError")<{
  readonly cause?: unknown
}> {}

// Keys the classes by tag, and has the compiler check that each key is its class's tag.
const byTag = <const T extends Record<string, abstract new(...args: never) => { readonly _tag: string }>>(
  classes: T & { readonly [K in keyof T]: abstract new(...args: never) => { readonly _tag: K } }
): T => classes

// The one list of failures: the union and the tag set below are both read from it.
const failureClasses = byTag({
  MissingCredential,
  InvalidCredential,
  InsufficientScope,
  NotFound,
  ValidationFailed,
  InvalidParameter,
  MalformedRequest,
  MethodNotAllowed,
  PayloadTooLarge,
  UnsupportedMediaType,
  RateLimited,
  IdempotencyKeyRequired,
  IdempotencyKeyConflict,
  IdempotencyKeyInFlight,
  IntegrationCallbackFailed,
  ServiceUnavailable,
  InternalError
})

/** Any failure the HTTP layer knows how to render. */
export type ApiFailure = InstanceType<(typeof failureClasses)[keyof typeof failureClasses]>

/** The tag of an {@link ApiFailure}. */
export type ApiFailureTag = ApiFailure["_tag"]

/** Every failure tag, in declaration order. */
export const API_FAILURE_TAGS = Object.keys(failureClasses) as ReadonlyArray<ApiFailureTag>

const failureTags: ReadonlySet<string> = new Set(API_FAILURE_TAGS)

/** Whether a value is one of the failures above. */
export const isApiFailure = (value: unknown): value is ApiFailure =>
  typeof value === "object" && value !== null && "_tag" in value && typeof value._tag === "string" &&
  failureTags.has(value._tag)
