import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { AccessTokenCheck, checkAccessToken } from "../../domain/oauth/access-token-check.js"
import { InvalidAccessToken } from "../../domain/oauth/errors.js"
import { lastUseIsStale } from "../../domain/credentials/last-used.js"
import type { Scope } from "../../domain/credentials/scopes.js"
import { AccessTokenSigner } from "./tokens.js"
import { AccessTokenRow, orUndefined } from "./rows.js"

/** Who is calling the agent endpoint, from a verified connector token. */
export interface AgentPrincipal {
  readonly grantId: number
  readonly clientId: string
  readonly personId: number
  /** The Store comes from the token only. */
  readonly storeId: number
  readonly scopes: ReadonlyArray<Scope>
}

/** The per-request check of an agent request's bearer token. */
export const makeAccessTokenCheck = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const signer = yield* AccessTokenSigner

  // One read per request: the token, its grant and the approver's membership, judged by `now()`.
  const findToken = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: AccessTokenRow,
    execute: (jti) =>
      sql`
        SELECT a.grant_id, a.client_id, g.person_id, g.store_id, a.scopes, a.resource, a.expires_at, a.revoked_at,
          g.revoked_at AS grant_revoked_at, g.last_used_at AS grant_last_used_at,
          EXISTS (SELECT 1 FROM memberships m JOIN stores s ON s.company_id = m.company_id
                  WHERE s.id = g.store_id AND m.person_id = g.person_id) AS member,
          now() AS now
        FROM oauth_access_tokens a JOIN oauth_grants g ON g.id = a.grant_id
        WHERE a.jti = ${jti}`
  })

  // The dashboard shows when a connection was last used; written at most once a minute per grant.
  const touchGrant = (grantId: number, row: { readonly grantLastUsedAt: Date | null; readonly now: Date } | undefined) =>
    row !== undefined && lastUseIsStale(row.grantLastUsedAt, row.now)
      ? sql`UPDATE oauth_grants SET last_used_at = now() WHERE id = ${grantId}`.pipe(Effect.orDie, Effect.asVoid)
      : Effect.void

  return {
    /** Verifies an agent request's bearer token for `resource`: signature, stored state, binding, membership. */
    authenticate: Effect.fn("OAuthGrants.authenticate")(function*(token: string, resource: string) {
        const claims = yield* signer.verify(token)
        const row = yield* orUndefined(findToken(claims.jti))
        // An unknown token is refused whatever the time, so the fallback clock is never consulted.
        const check = checkAccessToken(row, claims.aud, resource, row?.now ?? new Date(0))
        return yield* AccessTokenCheck.$match(check, {
          Accepted: ({ token }): Effect.Effect<AgentPrincipal, InvalidAccessToken> =>
            Effect.as(touchGrant(token.grantId, row), {
              grantId: token.grantId,
              clientId: token.clientId,
              personId: token.personId,
              storeId: token.storeId,
              scopes: token.scopes
            }),
          Rejected: ({ description }) => Effect.fail(new InvalidAccessToken({ description }))
        })
      })
  }
})
