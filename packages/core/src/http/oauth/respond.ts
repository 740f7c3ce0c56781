import { HttpServerResponse } from "effect/http"
import { type OAuthError, oauthErrorStatus } from "../../domain/oauth/errors.js"
import { oauthErrorBody } from "../protocol-errors.js"

// RFC 6749 §5.1: token responses (and anything else carrying secrets) must not be cached.
// Which of these answers browsers may read cross-origin is decided in one place (http/cors.ts).
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

/** A JSON answer of the authorization server, never cached. */
export const oauthJson = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...NO_STORE, ...headers } })

/** The RFC 6749 `{error, error_description}` body of a refusal, with its status. */
export const oauthErrorResponse = (failure: OAuthError) =>
  oauthJson(
    oauthErrorBody(failure.error, failure.description, failure.retryAfter),
    oauthErrorStatus(failure.error),
    failure.retryAfter === undefined ? {} : { "retry-after": String(failure.retryAfter) }
  )

/** A public JSON document (metadata), cacheable for five minutes. */
export const publicJson = (body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { headers: { "cache-control": "public, max-age=300" } })
