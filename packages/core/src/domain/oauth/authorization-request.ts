import { SCOPES, type Scope } from "../credentials/scopes.js"
import { isS256Challenge } from "./pkce.js"
import { checkResource } from "./resource.js"
import { parseScopeParam } from "./scope-param.js"

/** What the authorization endpoint needs to know about the client named in a request. */
export interface AuthorizingClient {
  readonly clientId: string
  readonly redirectUris: ReadonlyArray<string>
  readonly scope: ReadonlyArray<Scope> | null
}

/** A checked authorization request. */
export interface AuthorizationRequest {
  readonly clientId: string
  /** The redirect URI to answer at, exactly as registered. */
  readonly redirectUri: string
  /** Whether the request named it (the token request must then repeat it). */
  readonly redirectUriGiven: boolean
  readonly codeChallenge: string
  readonly scopes: ReadonlyArray<Scope>
  readonly state: string | undefined
  /** The agent resource the token will be bound to. */
  readonly resource: string
}

/** An RFC 6749 §4.1.2.1 error code of the authorization endpoint. */
export type AuthorizationErrorCode =
  | "invalid_request"
  | "unauthorized_client"
  | "access_denied"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_client"

/** The outcome of checking an authorization request. */
export type AuthorizationVerdict =
  | { readonly _tag: "Valid"; readonly request: AuthorizationRequest }
  /** Shown to the person, never redirected: the redirect URI cannot be trusted, or PKCE is missing. */
  | { readonly _tag: "Direct"; readonly error: AuthorizationErrorCode; readonly description: string }
  /** Sent back to the client's (verified) redirect URI. */
  | {
    readonly _tag: "Redirect"
    readonly redirectUri: string
    readonly error: AuthorizationErrorCode
    readonly description: string
    readonly state: string | undefined
  }

const single = (params: URLSearchParams, name: string): string | undefined | "repeated" => {
  const values = params.getAll(name)
  return values.length > 1 ? "repeated" : values[0]
}

/**
 * Checks an authorization request in the order that keeps redirects safe: the client and
 * its exact redirect URI first, then PKCE (S256 only; a `plain` or missing challenge is
 * refused directly), and only then the faults that may be reported to the redirect URI
 * (response type, resource, scope). `client` is the registration named by `client_id`,
 * if any.
 */
export const checkAuthorizationRequest = (
  params: URLSearchParams,
  client: AuthorizingClient | undefined,
  agentResource: string
): AuthorizationVerdict => {
  const direct = (error: AuthorizationErrorCode, description: string): AuthorizationVerdict => ({
    _tag: "Direct",
    error,
    description
  })
  const clientId = single(params, "client_id")
  if (clientId === undefined || clientId === "") return direct("invalid_request", "client_id is required.")
  if (clientId === "repeated") return direct("invalid_request", "client_id must be sent once.")
  if (client === undefined || client.clientId !== clientId) return direct("invalid_client", "Unknown client.")

  const given = single(params, "redirect_uri")
  if (given === "repeated") return direct("invalid_request", "redirect_uri must be sent once.")
  let redirectUri: string
  if (given === undefined) {
    const [only, ...others] = client.redirectUris
    if (only === undefined || others.length > 0) {
      return direct("invalid_request", "redirect_uri is required when the client registered several.")
    }
    redirectUri = only
  } else if (client.redirectUris.includes(given)) {
    redirectUri = given
  } else {
    return direct("invalid_request", "redirect_uri does not exactly match a registered redirect URI.")
  }

  const method = single(params, "code_challenge_method")
  const challenge = single(params, "code_challenge")
  if (challenge === undefined || challenge === "") {
    return direct("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.")
  }
  if (method !== "S256") {
    return direct("invalid_request", "Only the S256 code_challenge_method is supported.")
  }
  if (challenge === "repeated" || !isS256Challenge(challenge)) {
    return direct("invalid_request", "code_challenge must be a base64url SHA-256 digest (43 characters).")
  }

  const stateParam = single(params, "state")
  const state = stateParam === "repeated" ? undefined : stateParam
  const redirect = (error: AuthorizationErrorCode, description: string): AuthorizationVerdict => ({
    _tag: "Redirect",
    redirectUri,
    error,
    description,
    state
  })
  if (stateParam === "repeated") return redirect("invalid_request", "state must be sent once.")
  const responseType = single(params, "response_type")
  if (responseType === undefined || responseType === "repeated") {
    return redirect("invalid_request", "response_type=code is required.")
  }
  if (responseType !== "code") return redirect("unsupported_response_type", "Only response_type=code is supported.")

  const resource = checkResource(params.getAll("resource"), agentResource)
  if (resource._tag === "InvalidTarget") return redirect("invalid_target", resource.detail)

  const scopeParam = single(params, "scope")
  if (scopeParam === "repeated") return redirect("invalid_request", "scope must be sent once.")
  let scopes: ReadonlyArray<Scope>
  if (scopeParam === undefined) {
    scopes = client.scope ?? SCOPES
  } else {
    const parsed = parseScopeParam(scopeParam)
    if (parsed._tag === "Unknown") return redirect("invalid_scope", `Unknown scope: ${parsed.unknown.join(", ")}.`)
    scopes = parsed.scopes
  }
  if (scopes.length === 0) return redirect("invalid_scope", "Request at least one scope.")

  return {
    _tag: "Valid",
    request: {
      clientId,
      redirectUri,
      redirectUriGiven: given !== undefined,
      codeChallenge: challenge,
      scopes,
      state,
      resource: agentResource
    }
  }
}

/**
 * The URL that answers an authorization request at the client's redirect URI, keeping
 * its own query. `iss` goes in only when given (see {@link issParameter}).
 */
export const redirectWith = (redirectUri: string, params: Readonly<Record<string, string | undefined>>): string => {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value)
  return url.toString()
}

/**
 * The RFC 9207 `iss` parameter of an authorization response: the issuer when the deployment
 * sends it (then on successes and errors alike, RFC 9207 §2), nothing otherwise.
 */
export const issParameter = (issuer: string, enabled: boolean): { readonly iss?: string } =>
  enabled ? { iss: issuer } : {}

/**
 * Whether an authorization error found before consent may be sent to the client's redirect URI.
 * RFC 9700 §4.11.2: redirecting errors to a client nobody vouches for turns the authorization
 * endpoint into an open redirector; such errors are shown to the person instead, unless the
 * client is verified or the person approved it before.
 */
export const mayRedirectError = (client: { readonly verified: boolean }, approvedBefore: boolean): boolean =>
  client.verified || approvedBefore
