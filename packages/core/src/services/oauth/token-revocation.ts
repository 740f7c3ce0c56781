import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { NotFound } from "../../domain/errors.js"
import { decideConnectionRevocation, decideTokenRevocation, RevocationOutcome } from "../../domain/oauth/revocation.js"
import { hashSecret } from "../../domain/oauth/tokens.js"
import { AccessTokenSigner } from "./tokens.js"
import { makeGrantStore } from "./grant-store.js"
import { OptionalTimestamp, orUndefined, TokenHolderRow } from "./rows.js"
import { snakeStruct } from "../../storage/table.js"

/** Revocation of a grant by its client (RFC 7009) or by the merchant (a connection). */
export const makeTokenRevocation = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const signer = yield* AccessTokenSigner
  const store = yield* makeGrantStore

  const findAccessTokenHolder = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: TokenHolderRow,
    execute: (jti) => sql`SELECT grant_id, client_id FROM oauth_access_tokens WHERE jti = ${jti}`
  })
  const findRefreshTokenHolder = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: TokenHolderRow,
    execute: (tokenHash) =>
      sql`SELECT grant_id, client_id FROM oauth_refresh_tokens WHERE token_hash = ${tokenHash}`
  })
  // Locked, so two revocations of one connection cannot both find it live.
  const lockGrant = SqlSchema.findOneOption({
    Request: Schema.Int,
    Result: snakeStruct({ id: Schema.Int, revokedAt: OptionalTimestamp }),
    execute: (grantId) => sql`SELECT id, revoked_at FROM oauth_grants WHERE id = ${grantId} FOR UPDATE`
  })

  // A JWT is an access token (found by its verified `jti`); anything else may be a refresh token.
  const holderOf = (token: string) =>
    token.split(".").length === 3
      ? signer.verify(token).pipe(
        Effect.option,
        Effect.flatMap((claims) =>
          claims._tag === "Some" ? orUndefined(findAccessTokenHolder(claims.value.jti)) : Effect.succeed(undefined)
        )
      )
      : orUndefined(findRefreshTokenHolder(hashSecret(token)))

  return {
    /** RFC 7009: revokes the grant of a token issued to `clientId`; unknown tokens change nothing. */
    revokeToken: Effect.fn("OAuthGrants.revokeToken")(function*(clientId: string, token: string) {
        const outcome = decideTokenRevocation(clientId, yield* holderOf(token))
        if (outcome._tag === "Revoke") yield* store.revokeGrant(outcome.grantId, "client")
      }, sql.withTransaction, Effect.orDie),

    /**
     * A person leaves a company: every live grant they gave for its Stores is revoked, tokens
     * and unexchanged codes with it, in one transaction.
     */
    revokeMemberGrants: Effect.fn("OAuthGrants.revokeMemberGrants")(function*(companyId: number, personId: number) {
        const grants = yield* sql<{ readonly id: number }>`
          SELECT g.id FROM oauth_grants g JOIN stores s ON s.id = g.store_id
          WHERE s.company_id = ${companyId} AND g.person_id = ${personId} AND g.revoked_at IS NULL
          FOR UPDATE OF g`
        for (const grant of grants) yield* store.revokeGrant(Number(grant.id), "member_removed")
        return grants.length
      }, sql.withTransaction, Effect.orDie),

    /** The merchant revokes a connection: every token and unexchanged code of it. */
    revokeConnection: Effect.fn("OAuthGrants.revokeConnection")(function*(grantId: number) {
        const outcome = decideConnectionRevocation(yield* orUndefined(lockGrant(grantId)))
        return yield* RevocationOutcome.$match(outcome, {
          Revoke: ({ grantId }) => Effect.as(store.revokeGrant(grantId, "merchant"), true),
          Ignore: () => Effect.succeed(false)
        })
      }, sql.withTransaction, Effect.orDie, Effect.flatMap((revoked) => (revoked ? Effect.void : Effect.fail(new NotFound({ resource: "connection" })))))
  }
})
