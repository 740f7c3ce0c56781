import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { match } from "ts-pattern"
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
  isApiFailure,
  MalformedRequest,
  MethodNotAllowed,
  MissingCredential,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  UnsupportedMediaType,
  ValidationFailed
} from "../domain/errors.js"
import type { FieldError } from "../domain/input/field-error.js"
import { describeFailure, FAILURE_STATUS, type FailureStatus, type FailureWithStatus } from "../presenters/failure-table.js"
import { CurrentRequest } from "./request-info.js"
import { legacyBody, problemBody } from "./respond.js"
import { LegacyErrorDocument, ProblemDocument } from "./wire.js"

/**
 * The error schemas HttpApi encodes failures with. Each is the failures of one status on the
 * Type side and one generation's error body on the wire, encoded by that generation's one
 * encoder (`problemBody`, `legacyBody`). Endpoints and middleware declare them, so the OpenAPI
 * document shows exactly the bodies that are sent, and a handler that fails with a status its
 * endpoint does not declare is a compile error.
 */

/** The error body formats of the HttpApi generations: v3, operator and storefront, or legacy. */
export type ErrorFormat = "problem" | "legacy"

type ProblemWire = typeof ProblemDocument.Type
type LegacyWire = typeof LegacyErrorDocument.Type

const hasStatus = <S extends FailureStatus>(status: S) => (value: unknown): value is FailureWithStatus<S> =>
  isApiFailure(value) && FAILURE_STATUS[value._tag] === status

// Clients decode with the same schemas (the Effect client); a failure is rebuilt from what the
// wire carries. Fields that only shape the wording (which resource, why a key is invalid) are
// not on the wire and come back generic.
const failureOfProblem = (body: ProblemWire): ApiFailure => {
  const errors: ReadonlyArray<FieldError> = body.errors ?? []
  const retryAfter = body.retry_after ?? 1
  return match(body.code)
    .returnType<ApiFailure>()
    .with("missing_api_key", () => new MissingCredential({ kind: "api_key" }))
    .with("missing_operator_token", () => new MissingCredential({ kind: "operator_token" }))
    .with("invalid_api_key", () => new InvalidCredential({ kind: "api_key", reason: "unknown" }))
    .with("invalid_operator_token", () => new InvalidCredential({ kind: "operator_token", reason: "unknown" }))
    .with("missing_metrics_token", () => new MissingCredential({ kind: "metrics_token" }))
    .with("invalid_metrics_token", () => new InvalidCredential({ kind: "metrics_token", reason: "unknown" }))
    .with("insufficient_scope", () =>
      new InsufficientScope({
        required: (body.required_scopes ?? []) as InsufficientScope["required"],
        granted: (body.granted_scopes ?? []) as InsufficientScope["granted"]
      }))
    .with("not_found", () => new NotFound({ resource: "resource" }))
    .with("validation_failed", "invalid_pricing_model", (code) => new ValidationFailed({ code, detail: body.detail, errors }))
    .with("invalid_parameter", () => new InvalidParameter({ errors }))
    .with("malformed_request", () => new MalformedRequest({ detail: body.detail }))
    .with("method_not_allowed", () => new MethodNotAllowed({ allowed: [] }))
    .with("payload_too_large", () => new PayloadTooLarge({ limitBytes: 0 }))
    .with("unsupported_media_type", () => new UnsupportedMediaType())
    .with("rate_limited", () => new RateLimited({ retryAfter }))
    .with("idempotency_key_required", () => new IdempotencyKeyRequired())
    .with("idempotency_key_conflict", () => new IdempotencyKeyConflict())
    .with("idempotency_key_in_flight", () => new IdempotencyKeyInFlight({ retryAfter }))
    .with("integration_callback_failed", () => new IntegrationCallbackFailed({ productId: 0, reason: body.detail }))
    .with("service_unavailable", () => new ServiceUnavailable({ retryAfter }))
    .with("internal_error", () => new InternalError({}))
    .exhaustive()
}

// The legacy body has no code: the status picks the failure.
const failureOfLegacy = (status: FailureStatus, body: LegacyWire): ApiFailure => {
  const errors: ReadonlyArray<FieldError> = Object.entries(body.errors).flatMap(([parameter, details]) =>
    details.map((detail) => ({ parameter, code: "invalid_value", detail }))
  )
  return match(status)
    .returnType<ApiFailure>()
    .with(400, () => new MalformedRequest({ detail: body.message }))
    .with(401, () => new InvalidCredential({ kind: "api_key", reason: "unknown" }))
    .with(403, () => new InsufficientScope({ required: [], granted: [] }))
    .with(404, () => new NotFound({ resource: "resource" }))
    .with(405, () => new MethodNotAllowed({ allowed: [] }))
    .with(409, () => new IdempotencyKeyConflict())
    .with(413, () => new PayloadTooLarge({ limitBytes: 0 }))
    .with(415, () => new UnsupportedMediaType())
    .with(422, () => new ValidationFailed({ detail: body.message, errors }))
    .with(429, () => new RateLimited({ retryAfter: 1 }))
    .with(500, () => new InternalError({}))
    .with(502, () => new IntegrationCallbackFailed({ productId: 0, reason: body.message }))
    .with(503, () => new ServiceUnavailable({ retryAfter: 1 }))
    .exhaustive()
}

// A rebuilt failure of another status than the schema's can only come from a foreign body.
const decoded = <S extends FailureStatus>(status: S, failure: ApiFailure, input: unknown) =>
  hasStatus(status)(failure)
    ? Effect.succeed(failure)
    : Effect.fail(new SchemaIssue.InvalidValue({ message: `Not a ${status} failure.` }, input))

const problemCodec = <S extends FailureStatus>(status: S) =>
  ProblemDocument.pipe(
    Schema.decodeTo(
      Schema.declare(hasStatus(status)),
      SchemaTransformation.transformEffect({
        decode: (body) => decoded(status, failureOfProblem(body), body),
        encode: (failure) =>
          Effect.map(Effect.service(CurrentRequest), (info) => {
            if (status >= 500) info.faults.push(failure)
            return problemBody(describeFailure(failure), info)
          })
      })
    ),
    HttpApiSchema.status(status),
    HttpApiSchema.asJson({ contentType: "application/problem+json" })
  )

const legacyCodec = <S extends FailureStatus>(status: S) =>
  LegacyErrorDocument.pipe(
    Schema.decodeTo(
      Schema.declare(hasStatus(status)),
      SchemaTransformation.transformEffect({
        decode: (body) => decoded(status, failureOfLegacy(status, body), body),
        encode: (failure) =>
          Effect.map(Effect.service(CurrentRequest), (info) => {
            if (status >= 500) info.faults.push(failure)
            return legacyBody(describeFailure(failure))
          })
      })
    ),
    HttpApiSchema.status(status)
  )

// Quotas, in-flight idempotency keys and an unreachable database tell the client when to come
// back (RFC 9110 §10.2.3).
const RETRY_AFTER_STATUSES: ReadonlySet<FailureStatus> = new Set([409, 429, 503])

const retryAfterOf = (failure: ApiFailure): number | undefined =>
  failure._tag === "RateLimited" || failure._tag === "IdempotencyKeyInFlight" || failure._tag === "ServiceUnavailable"
    ? failure.retryAfter
    : undefined

// Adds `Retry-After` to the statuses that carry one; the body is the format's codec.
const withRetryAfter = <S extends FailureStatus>(status: S, body: ReturnType<typeof problemCodec<S>> | ReturnType<typeof legacyCodec<S>>) =>
  Schema.declare(hasStatus(status)).pipe(
    HttpApiSchema.encodeToWithHeaders({ body, headers: { "retry-after": Schema.optionalKey(Schema.String) } }, {
      decode: ({ body }) => body,
      encode: (failure) => {
        const retryAfter = retryAfterOf(failure)
        return { body: failure, headers: retryAfter === undefined ? {} : { "retry-after": String(retryAfter) } }
      }
    })
  )

const made = new Map<string, Schema.Top>()

// One instance per (format, status), so middleware and endpoints declaring a status share it.
const once = <A extends Schema.Top>(key: string, make: () => A): A => {
  const known = made.get(key)
  if (known !== undefined) return known as A
  const schema = make()
  made.set(key, schema)
  return schema
}

/** The error schema of the failures of `status` as a v3 problem document. */
export const problemAt = <S extends FailureStatus>(status: S) =>
  once(`problem:${status}`, () => {
    const body = problemCodec(status)
    return RETRY_AFTER_STATUSES.has(status) ? withRetryAfter(status, body) : body
  })

/** The error schema of the failures of `status` in the previous generation's body. */
export const legacyAt = <S extends FailureStatus>(status: S) =>
  once(`legacy:${status}`, () => {
    const body = legacyCodec(status)
    return RETRY_AFTER_STATUSES.has(status) ? withRetryAfter(status, body) : body
  })

/** The error schemas of several statuses in one format, for an endpoint's or a middleware's `error`. */
export const problemsAt = <const S extends ReadonlyArray<FailureStatus>>(statuses: S) => statuses.map(problemAt)

/** The same in the previous generation's body. */
export const legacyErrorsAt = <const S extends ReadonlyArray<FailureStatus>>(statuses: S) => statuses.map(legacyAt)
