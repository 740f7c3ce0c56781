import { Data } from "effect"
import type { Scope } from "../credentials/scopes.js"
import { canonicalResource } from "./resource.js"

/** A stored access token with what its grant says at the time of the request. */
export interface AccessTokenRecord {
  readonly grantId: number
  readonly clientId: string
  readonly personId: number
  readonly storeId: number
  readonly scopes: ReadonlyArray<Scope>
  readonly resource: string
  readonly expiresAt: Date
  readonly revokedAt: Date | null
  readonly grantRevokedAt: Date | null
  /** Whether the approving person still belongs to the Store's company. */
  readonly member: boolean
}

/** The outcome of checking an agent request's access token. */
export type AccessTokenCheck = Data.TaggedEnum<{
  Accepted: { readonly token: AccessTokenRecord }
  Rejected: { readonly description: string }
}>

/** Constructors of {@link AccessTokenCheck}. */
export const AccessTokenCheck = Data.taggedEnum<AccessTokenCheck>()

/**
 * Checks a token whose signature verified (RFC 9068 §4): it must be known, unrevoked, unexpired
 * by its stored expiry, bound (stored and `aud`) to the requested resource, and its approver
 * still a member of the Store's company.
 */
export const checkAccessToken = (
  token: AccessTokenRecord | undefined,
  audience: string,
  resource: string,
  now: Date
): AccessTokenCheck => {
  const reject = (description: string) => AccessTokenCheck.Rejected({ description })
  if (token === undefined) return reject("The access token is unknown.")
  if (token.revokedAt !== null || token.grantRevokedAt !== null) return reject("The access token was revoked.")
  if (token.expiresAt.getTime() <= now.getTime()) return reject("The access token has expired.")
  const expected = canonicalResource(resource)
  if (canonicalResource(token.resource) !== expected || canonicalResource(audience) !== expected) {
    return reject("The access token is bound to another resource.")
  }
  if (!token.member) return reject("The approving person no longer belongs to the Store's company.")
  return AccessTokenCheck.Accepted({ token })
}
