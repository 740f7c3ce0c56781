import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { Scope } from "../../domain/credentials/scopes.js"
import { JsonStrings, OptionalTimestamp, StoredScopes, Timestamp } from "./rows.js"
import { snakeStruct } from "../../storage/table.js"
import type { Connection } from "../../domain/oauth/connection.js"

export type { Connection } from "../../domain/oauth/connection.js"

const ConnectionRow = snakeStruct({
  id: Schema.Int,
  clientId: Schema.String,
  clientName: Schema.NullOr(Schema.String),
  personId: Schema.Int,
  scopes: StoredScopes,
  createdAt: Timestamp,
  redirectUris: JsonStrings,
  lastUsedAt: OptionalTimestamp
})

/** What a person already granted a client on one Store, through its live connections there. */
export interface StoreGrant {
  readonly storeId: number
  readonly scopes: ReadonlyArray<Scope>
}

const StoreGrantRow = snakeStruct({ storeId: Schema.Int, scopes: StoredScopes })

/**
 * A live grant: not revoked, and still holding a usable refresh token, access token or code. The one
 * definition of a connection, used wherever grants are listed or grown.
 */
const liveGrant = (sql: SqlClient.SqlClient) =>
  sql`g.revoked_at IS NULL AND (
    EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.grant_id = g.id
            AND r.revoked_at IS NULL AND r.rotated_at IS NULL AND r.expires_at > now())
    OR EXISTS (SELECT 1 FROM oauth_access_tokens a WHERE a.grant_id = g.id
            AND a.revoked_at IS NULL AND a.expires_at > now())
    OR EXISTS (SELECT 1 FROM oauth_codes k WHERE k.grant_id = g.id
            AND k.consumed_at IS NULL AND k.expires_at > now()))`

/** The connections of a Store, and the pruning of spent codes and tokens. */
export const makeConnections = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const findLiveGrants = SqlSchema.findAll({
    Request: Schema.Struct({ clientId: Schema.String, personId: Schema.Int, storeId: Schema.Int }),
    Result: Schema.Struct({ id: Schema.Int, scopes: StoredScopes }),
    execute: ({ clientId, personId, storeId }) =>
      sql`
        SELECT g.id, g.scopes FROM oauth_grants g
        WHERE g.client_id = ${clientId} AND g.person_id = ${personId} AND g.store_id = ${storeId} AND ${liveGrant(sql)}
        ORDER BY g.id FOR UPDATE OF g`
  })

  const findStoreGrants = SqlSchema.findAll({
    Request: Schema.Struct({ clientId: Schema.String, personId: Schema.Int }),
    Result: StoreGrantRow,
    execute: ({ clientId, personId }) =>
      sql`
        SELECT g.store_id, g.scopes FROM oauth_grants g
        WHERE g.client_id = ${clientId} AND g.person_id = ${personId} AND ${liveGrant(sql)}
        ORDER BY g.id`
  })

  const findConnections = SqlSchema.findAll({
    Request: Schema.Int,
    Result: ConnectionRow,
    execute: (storeId) =>
      sql`
        SELECT g.id, g.client_id, c.client_name, g.person_id, g.scopes, g.created_at, c.redirect_uris, g.last_used_at
        FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
        WHERE g.store_id = ${storeId} AND ${liveGrant(sql)}
        ORDER BY g.id`
  })

  return {
    /** The live connections of a Store: unrevoked grants with a usable code or token. */
    listConnections: (storeId: number): Effect.Effect<ReadonlyArray<Connection>> =>
      findConnections(storeId).pipe(Effect.orDie),

    /** What a person already granted a client, per Store, through live connections. */
    storeGrantsOf: (clientId: string, personId: number): Effect.Effect<ReadonlyArray<StoreGrant>> =>
      findStoreGrants({ clientId, personId }).pipe(Effect.orDie),

    /** The live grants of a client, person and Store, locked until the transaction ends: the ones a new grant grows. */
    liveGrantsFor: (clientId: string, personId: number, storeId: number) =>
      findLiveGrants({ clientId, personId, storeId }).pipe(Effect.orDie),

    /** Deletes expired codes and tokens. */
    prune: Effect.gen(function*() {
      // Expired rows serve no check any more; a day's grace keeps replays recognisable.
      yield* sql`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`
      yield* sql`DELETE FROM oauth_access_tokens WHERE expires_at < now() - interval '1 day'`
      yield* sql`DELETE FROM oauth_refresh_tokens WHERE expires_at < now() - interval '1 day'`
    }).pipe(Effect.orDie)
  }
})
