import { Data } from "effect"
import type { Scope } from "../credentials/scopes.js"
import { OAuthError } from "./errors.js"
import type { GrantRecord } from "./grant.js"
import { canonicalResource, checkResource } from "./resource.js"
import { parseScopeParam } from "./scope-param.js"

/** A stored refresh token. */
export interface RefreshTokenRecord {
  readonly id: number
  readonly grantId: number
  readonly clientId: string
  readonly expiresAt: Date
  readonly rotatedAt: Date | null
  readonly revokedAt: Date | null
}

/** What the client presents at the token endpoint with `grant_type=refresh_token`. */
export interface RefreshTokenRequest {
  readonly clientId: string
  readonly scope: string | undefined
  readonly resources: ReadonlyArray<string>
}

/** Everything a refresh decision reads. */
export interface RefreshState {
  readonly token: RefreshTokenRecord | undefined
  readonly grant: GrantRecord | undefined
  /** Whether the client registered the `refresh_token` grant type. */
  readonly clientMayRefresh: boolean
  /** Whether the approving person still belongs to the Store's company. */
  readonly member: boolean
  readonly request: RefreshTokenRequest
  readonly agentResource: string
  readonly now: Date
}

/** The outcome of a refresh. */
export type RefreshOutcome = Data.TaggedEnum<{
  /** Rotate token `tokenId`: it is spent, and a new pair with `scopes` is issued under `grant`. */
  Rotate: { readonly tokenId: number; readonly grant: GrantRecord; readonly scopes: ReadonlyArray<Scope> }
  /** A rotated token came back: the whole family (the grant) is revoked (RFC 9700 §4.14.2). */
  ReuseDetected: { readonly grantId: number; readonly error: OAuthError }
  /** Refuse; nothing changes. */
  Refuse: { readonly error: OAuthError }
}>

/** Constructors of {@link RefreshOutcome}. */
export const RefreshOutcome = Data.taggedEnum<RefreshOutcome>()

const invalidGrant = (description: string) => new OAuthError({ error: "invalid_grant", description })

/**
 * Decides a refresh (RFC 6749 §6): the token must be the client's, unrotated, live and of a live
 * grant still bound to the agent resource; the client must have registered refresh; a `scope` may
 * only narrow the grant's scopes.
 */
export const decideRefresh = (state: RefreshState): RefreshOutcome => {
  const { token, grant, request } = state
  const refuse = (error: OAuthError) => RefreshOutcome.Refuse({ error })
  if (token === undefined || token.clientId !== request.clientId) return refuse(invalidGrant("The refresh token is invalid."))
  if (token.rotatedAt !== null) {
    return RefreshOutcome.ReuseDetected({
      grantId: token.grantId,
      error: invalidGrant("The refresh token was already used; the grant is revoked.")
    })
  }
  if (token.revokedAt !== null || token.expiresAt.getTime() <= state.now.getTime()) {
    return refuse(invalidGrant("The refresh token is revoked or expired."))
  }
  if (grant === undefined || grant.revokedAt !== null) return refuse(invalidGrant("The grant was revoked."))
  if (!state.clientMayRefresh) {
    return refuse(new OAuthError({ error: "unauthorized_client", description: "The client did not register refresh_token." }))
  }
  const resource = checkResource(request.resources, state.agentResource)
  if (resource._tag === "InvalidTarget") return refuse(new OAuthError({ error: "invalid_target", description: resource.detail }))
  // The stored binding must still name this deployment's agent resource.
  if (canonicalResource(grant.resource) !== canonicalResource(state.agentResource)) {
    return refuse(invalidGrant("The grant is bound to another resource."))
  }
  let scopes = grant.scopes
  if (request.scope !== undefined) {
    const parsed = parseScopeParam(request.scope)
    if (parsed._tag === "Unknown" || parsed.scopes.some((scope) => !grant.scopes.includes(scope))) {
      return refuse(new OAuthError({ error: "invalid_scope", description: "A refresh may only narrow the granted scopes." }))
    }
    scopes = parsed.scopes
  }
  if (!state.member) return refuse(invalidGrant("The approving person no longer belongs to the Store's company."))
  return RefreshOutcome.Rotate({ tokenId: token.id, grant, scopes })
}
