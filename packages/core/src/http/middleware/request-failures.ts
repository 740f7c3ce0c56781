import { HttpApiError } from "effect/http-api"
import {
  type ApiFailure,
  InternalError,
  InvalidParameter,
  isApiFailure,
  MalformedRequest,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  ValidationFailed
} from "../../domain/errors.js"
import { isDatabaseUnreachable, OUTAGE_RETRY_AFTER_SECONDS } from "../../storage/outage.js"
import { issueToFieldErrors, issueToParameterErrors } from "../../domain/input/schema-issues.js"
import type { FailureWithStatus } from "../../presenters/failure-table.js"
import { resourceOfIssue } from "../resource-id.js"

const hasTag = (value: unknown, tag: string): boolean =>
  typeof value === "object" && value !== null && "_tag" in value && value._tag === tag

const reasonOf = (value: unknown): unknown =>
  typeof value === "object" && value !== null && "reason" in value ? value.reason : undefined

/** Whether an error was raised by reading or decoding the request (the client's input). */
export const isRequestInputError = (error: unknown): boolean =>
  (HttpApiError.HttpApiSchemaError.is(error) && requestSlots.has(error.kind)) ||
  HttpApiError.HttpApiPayloadTooLarge.is(error) ||
  (hasTag(error, "HttpServerError") && hasTag(reasonOf(error), "RequestParseError"))

const requestSlots: ReadonlySet<string> = new Set(["Payload", "Query", "Headers", "Params"])

/**
 * The failure a client is told about for its unreadable input: a body or query that failed its
 * schema (422 naming each fault), unparseable (400) or oversized (413) input, or a path segment
 * of the wrong shape (404: it can name no resource). Anything else is an internal error.
 */
export const requestInputFailure = (error: unknown, maxBodyBytes: number): FailureWithStatus<400 | 404 | 413 | 422 | 500> => {
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
        return new NotFound({ resource: resourceOfIssue(issue) ?? "resource" })
      default:
        return new InternalError({ cause: error })
    }
  }
  return bodyReadFailure(error, maxBodyBytes)
}

/** The failure of reading a request body: too large (413), unreadable (400), or internal. */
export const bodyReadFailure = (error: unknown, maxBodyBytes: number): PayloadTooLarge | MalformedRequest | InternalError => {
  if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return new PayloadTooLarge({ limitBytes: maxBodyBytes })
  const reason = reasonOf(error)
  if (hasTag(error, "HttpServerError") && hasTag(reason, "RequestParseError")) {
    return reasonOf(reason) === "BodyTooLarge"
      ? new PayloadTooLarge({ limitBytes: maxBodyBytes })
      : new MalformedRequest({ detail: "The request body is not valid JSON." })
  }
  return new InternalError({ cause: error })
}

/**
 * Classifies what went wrong outside any endpoint's own answer: a failure, the client's
 * unreadable input, an unknown route, an unreachable database (503, retry later), or (for
 * anything else) an internal error. Nothing a client sends is left to become an unexplained 500.
 */
export const classifyRequestError = (error: unknown, maxBodyBytes: number): ApiFailure => {
  if (isApiFailure(error)) return error
  if (isRequestInputError(error)) return requestInputFailure(error, maxBodyBytes)
  if (hasTag(error, "HttpServerError") && hasTag(reasonOf(error), "RouteNotFound")) return new NotFound({ resource: "route" })
  if (isDatabaseUnreachable(error)) return new ServiceUnavailable({ retryAfter: OUTAGE_RETRY_AFTER_SECONDS })
  return new InternalError({ cause: error })
}
