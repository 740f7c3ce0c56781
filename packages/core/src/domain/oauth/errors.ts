import { Data } from "effect"

/**
 * Error codes of the authorization server's JSON endpoints (RFC 6749 §5.2, RFC 7009,
 * RFC 7591 §3.2.2, RFC 8707) plus `rate_limited` for the registration quotas.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "rate_limited"

/**
 * A refusal of the token, registration or revocation endpoint. These endpoints answer
 * with RFC 6749 `{error, error_description}` bodies, not problem documents, so these
 * failures stay outside `ApiFailure` and are rendered by `http/oauth/respond.ts`.
 */
export class OAuthError extends Data.TaggedError("OAuthError")<{
  readonly error: OAuthErrorCode
  readonly description: string
  /** Seconds to wait, for `rate_limited`. */
  readonly retryAfter?: number
}> {}

/** The HTTP status of each OAuth error code. */
export const oauthErrorStatus = (error: OAuthErrorCode): number =>
  error === "invalid_client" ? 401 : error === "rate_limited" ? 429 : 400

/** A bearer token the agent endpoint cannot accept (RFC 6750 `invalid_token`). */
export class InvalidAccessToken extends Data.TaggedError("InvalidAccessToken")<{
  readonly description: string
}> {}

/**
 * A client metadata document that could not be used (unreachable, too large, not JSON, or not
 * describing the client it was fetched for): the authorization request is refused as
 * `invalid_client`, shown to the person, never redirected.
 */
export class ClientDocumentRefused extends Data.TaggedError("ClientDocumentRefused")<{
  readonly description: string
}> {}
