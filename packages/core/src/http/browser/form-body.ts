import { Effect, Result } from "effect"
import type { HttpServerError, HttpServerRequest } from "effect/http"
import { findUnstorableParam } from "../../domain/input/json-input.js"

/** What every refusal of a value no field can store says after the field's name. */
export const UNSTORABLE_DETAIL = "must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates."

/**
 * A browser form post: its fields, or why they are refused (not sent as a form, or a value holds
 * text no field can store). Each page answers the refusal in its own protocol.
 */
export const readFormBody = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*(): Effect.fn.Return<Result.Result<URLSearchParams, string>, HttpServerError.HttpServerError> {
    const contentType = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase()
    if (contentType !== "application/x-www-form-urlencoded") {
      return Result.fail("Send the parameters as application/x-www-form-urlencoded.")
    }
    const params = new URLSearchParams(yield* request.text)
    const unstorable = findUnstorableParam(params)
    return unstorable === undefined ? Result.succeed(params) : Result.fail(`${unstorable} ${UNSTORABLE_DETAIL}`)
  })
