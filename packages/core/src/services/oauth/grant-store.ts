import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { OAuthError } from "../../domain/oauth/errors.js"
import type { RevocationReason } from "../../domain/oauth/grant.js"
import { agentLocation } from "../../domain/oauth/metadata.js"
import { Settings } from "../settings.js"
import { GrantRow, orUndefined, TransactionTime } from "./rows.js"

/**
 * The reads and writes of `oauth_grants` that every grant module shares, and the transaction
 * each token-endpoint state change runs in.
 */
export const makeGrantStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const settings = yield* Settings

  const findGrantRow = SqlSchema.findOneOption({
    Request: Schema.Int,
    Result: GrantRow,
    execute: (grantId) =>
      sql`
        SELECT id, client_id, person_id, store_id, scopes, resource, revoked_at
        FROM oauth_grants WHERE id = ${grantId}`
  })

  const findMembership = SqlSchema.findOne({
    Request: Schema.Int,
    Result: Schema.Struct({ member: Schema.Boolean }),
    execute: (grantId) =>
      sql`
        SELECT EXISTS (
          SELECT 1 FROM oauth_grants g JOIN stores s ON s.id = g.store_id
          JOIN memberships m ON m.company_id = s.company_id AND m.person_id = g.person_id
          WHERE g.id = ${grantId}) AS member`
  })

  const findTime = SqlSchema.findOne({ Request: Schema.Void, Result: TransactionTime, execute: () => sql`SELECT now() AS now` })

  return {
    /** The resource every grant of this deployment is bound to: the agent endpoint. */
    agentResource: agentLocation(settings.baseUrl, settings.mcpUrl).resource,

    /** The grant with this id, if any. */
    findGrant: (grantId: number) => orUndefined(findGrantRow(grantId)),

    /** Whether the grant's approving person still belongs to its Store's company. */
    isMember: (grantId: number) => findMembership(grantId).pipe(Effect.map((row) => row.member), Effect.orDie),

    /** The database's `now()`: stored expiries are set by that clock, so they are judged by it. */
    now: findTime(undefined).pipe(Effect.map((row) => row.now), Effect.orDie),

    /**
     * Revokes a grant and everything issued under it: its tokens and its unexchanged codes.
     * Runs inside the caller's transaction, beside the read that decided it.
     */
    revokeGrant: Effect.fn("OAuthGrants.revokeGrant")(function*(grantId: number, reason: RevocationReason) {
        yield* sql`
          UPDATE oauth_grants SET revoked_at = now(), revoked_reason = ${reason}
          WHERE id = ${grantId} AND revoked_at IS NULL`
        yield* sql`UPDATE oauth_access_tokens SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`
        yield* sql`UPDATE oauth_refresh_tokens SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`
        yield* sql`
          UPDATE oauth_codes SET consumed_at = now(), outcome = 'revoked'
          WHERE grant_id = ${grantId} AND consumed_at IS NULL`
      }, Effect.orDie),

    /**
     * Runs one token-endpoint state change as ONE transaction, so a crash half-way leaves the
     * old state intact (the code unexchanged, the refresh token unrotated). A refusal must still
     * commit what it changed (a spent code, a reuse revocation): it leaves the transaction as a
     * value and fails only after the commit.
     */
    transition: <A, R>(change: Effect.Effect<A, OAuthError, R>): Effect.Effect<A, OAuthError, R> =>
      change.pipe(Effect.result, sql.withTransaction, Effect.orDie, Effect.flatMap(Effect.fromResult))
  }
})
