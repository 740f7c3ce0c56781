import { Data } from "effect"
import { OAuthError } from "./errors.js"
import type { GrantRecord } from "./grant.js"
import { verifyS256 } from "./pkce.js"
import { checkResource } from "./resource.js"

/** A stored authorization code. */
export interface CodeRecord {
  readonly grantId: number
  readonly clientId: string
  readonly redirectUri: string
  /** Whether the authorization request named `redirect_uri` (RFC 6749 §4.1.3 then requires it again). */
  readonly redirectUriGiven: boolean
  readonly codeChallenge: string
  readonly expiresAt: Date
  readonly consumedAt: Date | null
  readonly outcome: "exchanged" | "revoked" | null
}

/** What the client presents at the token endpoint with `grant_type=authorization_code`. */
export interface CodeExchangeRequest {
  readonly clientId: string
  readonly codeVerifier: string | undefined
  readonly redirectUri: string | undefined
  readonly resources: ReadonlyArray<string>
}

/** Everything an exchange decision reads. */
export interface CodeExchangeState {
  /** The code the hash names, if any. */
  readonly code: CodeRecord | undefined
  readonly grant: GrantRecord | undefined
  /** Whether the approving person still belongs to the Store's company. */
  readonly member: boolean
  readonly request: CodeExchangeRequest
  readonly agentResource: string
  readonly now: Date
}

/** The outcome of an authorization-code exchange. */
export type CodeExchangeOutcome = Data.TaggedEnum<{
  /** Issue tokens under `grant`; the code is consumed as exchanged. */
  Exchange: { readonly grant: GrantRecord }
  /** Refuse and consume the code as revoked: a failed exchange ends the code (single use). */
  Refuse: { readonly error: OAuthError }
  /** A consumed code that was exchanged came back: it leaked, so its grant is revoked (RFC 9700 §4.2.4). */
  Replay: { readonly grantId: number; readonly error: OAuthError }
  /** An unknown or already refused code: nothing changes. */
  Unknown: { readonly error: OAuthError }
}>

/** Constructors of {@link CodeExchangeOutcome}. */
export const CodeExchangeOutcome = Data.taggedEnum<CodeExchangeOutcome>()

const invalidGrant = (description: string) => new OAuthError({ error: "invalid_grant", description })

/**
 * Decides an authorization-code exchange (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707): the code
 * is single use, bound to its client, redirect URI and the agent resource, checked against
 * its PKCE challenge and expiry, and its grant must be live with the approver still a member.
 */
export const decideCodeExchange = (state: CodeExchangeState): CodeExchangeOutcome => {
  const { code, grant, request } = state
  if (code === undefined || code.consumedAt !== null) {
    const error = invalidGrant("The authorization code is invalid, expired or already used.")
    return code?.outcome === "exchanged"
      ? CodeExchangeOutcome.Replay({ grantId: code.grantId, error })
      : CodeExchangeOutcome.Unknown({ error })
  }
  const refuse = (error: OAuthError) => CodeExchangeOutcome.Refuse({ error })
  if (code.clientId !== request.clientId) return refuse(invalidGrant("The code was issued to another client."))
  if (code.expiresAt.getTime() <= state.now.getTime()) return refuse(invalidGrant("The authorization code has expired."))
  if (request.redirectUri !== undefined ? request.redirectUri !== code.redirectUri : code.redirectUriGiven) {
    return refuse(invalidGrant("redirect_uri does not match the authorization request."))
  }
  if (request.codeVerifier === undefined || !verifyS256(request.codeVerifier, code.codeChallenge)) {
    return refuse(invalidGrant("The code_verifier does not match the code_challenge."))
  }
  const resource = checkResource(request.resources, state.agentResource)
  if (resource._tag === "InvalidTarget") return refuse(new OAuthError({ error: "invalid_target", description: resource.detail }))
  if (grant === undefined || grant.revokedAt !== null) return refuse(invalidGrant("The grant was revoked."))
  if (!state.member) return refuse(invalidGrant("The approving person no longer belongs to the Store's company."))
  return CodeExchangeOutcome.Exchange({ grant })
}
