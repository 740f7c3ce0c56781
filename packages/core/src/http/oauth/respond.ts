import { HttpServerResponse } from "effect/http"
import { type OAuthError, oauthErrorStatus } from "../../domain/oauth/errors.js"
import { oauthErrorBody } from "../protocol-errors.js"

// RFC 6749 §5.1: token responses (and anything else carrying secrets) must not be cached.
// Browser-based agents call these endpoints cross-origin; they carry no cookies, so any
// origin may read the answers.
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache", "access-control-allow-origin": "*" }

/** The answer to a CORS preflight of the registration, token and revocation endpoints. */
export const preflight = HttpServerResponse.empty({
  status: 204,
  headers: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": "content-type, authorization",
    "access-control-max-age": "600"
  }
})

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

/** A public JSON document (metadata), readable cross-origin by browser-based clients. */
export const publicJson = (body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, {
    headers: { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" }
  })
