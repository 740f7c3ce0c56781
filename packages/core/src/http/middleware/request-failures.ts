import { Cause, Effect } from "effect"
import { HttpApiError } from "effect/http-api"
import { InternalError, InvalidParameter, isApiFailure, MalformedRequest, NotFound, PayloadTooLarge, ValidationFailed, type ApiFailure } from "../../domain/errors.js"
import { issueToFieldErrors, issueToParameterErrors } from "../../presenters/schema-faults.js"

const hasTag = (value: unknown, tag: string): boolean =>
  typeof value === "object" && value !== null && "_tag" in value && value._tag === tag

const reasonOf = (value: unknown): unknown =>
  typeof value === "object" && value !== null && "reason" in value ? value.reason : undefined

/**
 * Classifies what went wrong while decoding or serving a request: a body or query that
 * failed its schema, unparseable or oversized input, or (for anything else) an internal
 * error. Nothing a client sends is left to become an unexplained 500.
 */
export const classifyRequestError = (error: unknown, maxBodyBytes: number): ApiFailure => {
  if (isApiFailure(error)) return error
  if (HttpApiError.HttpApiSchemaError.is(error)) {
    const issue = error.cause.issue
    switch (error.kind) {
      case "Payload": {
        const errors = issueToFieldErrors(issue)
        // A body that is not JSON at all fails before any field is looked at.
        const unparseable = errors.length > 0 &&
          errors.every((e) => e.pointer === "" && e.code === "invalid_value" && e.detail.includes("JSON"))
        return unparseable
          ? new MalformedRequest({ detail: "The request body is not valid JSON." })
          : new ValidationFailed({ errors })
      }
      case "Query":
      case "Headers":
        return new InvalidParameter({ errors: issueToParameterErrors(issue) })
      case "Params":
        // A path segment of the wrong shape can name no resource.
        return new NotFound({ resource: "resource" })
      default:
        return new InternalError({ cause: error })
    }
  }
  if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return new PayloadTooLarge({ limitBytes: maxBodyBytes })
  const reason = reasonOf(error)
  if (hasTag(error, "HttpServerError") && hasTag(reason, "RequestParseError")) {
    return reasonOf(reason) === "BodyTooLarge"
      ? new PayloadTooLarge({ limitBytes: maxBodyBytes })
      : new MalformedRequest({ detail: "The request body is not valid JSON." })
  }
  if (hasTag(error, "HttpServerError") && hasTag(reason, "RouteNotFound")) return new NotFound({ resource: "route" })
  return new InternalError({ cause: error })
}

/**
 * The {@link ApiFailure} a cause amounts to: its first failure or defect, classified.
 * Nothing when only interruption is left (the client went away or the server is stopping).
 */
export const apiFailureOf = (cause: Cause.Cause<unknown>, maxBodyBytes: number): ApiFailure | undefined => {
  const failure = Cause.findErrorOption(cause)
  if (failure._tag === "Some") return classifyRequestError(failure.value, maxBodyBytes)
  const defect = cause.reasons.find(Cause.isDieReason)
  if (defect !== undefined) return classifyRequestError(defect.defect, maxBodyBytes)
  return undefined
}

/** Turns any failure or defect of an effect into an {@link ApiFailure}. */
export const catchAllAsApiFailure = <A, E, R>(effect: Effect.Effect<A, E, R>, maxBodyBytes: number) =>
  Effect.catchCause(effect, (cause) => {
    const failure = apiFailureOf(cause, maxBodyBytes)
    return failure === undefined ? Effect.interrupt : Effect.fail(failure)
  })
