import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createHash, randomUUID } from "node:crypto"

/**
 * Who claims rows that stand for work in progress (an `Idempotency-Key` in flight), and whether
 * the process behind another claim is gone. A claim whose owner is gone can be taken over at once,
 * rather than after a lease: its work died with it.
 */
export class ClaimOwner extends Context.Service<ClaimOwner, {
  /** This process's claims carry this id: random, one per database layer. */
  readonly id: string
  /** Whether the process that claimed with `owner` is gone. This process's own id is never gone. */
  readonly isGone: (owner: string) => Effect.Effect<boolean, SqlError>
}>()("signcraft/ClaimOwner") {}

// An advisory lock key (a signed 64-bit integer) per owner id: the first 8 bytes of its SHA-256.
const lockKeyOf = (owner: string): string => createHash("sha256").update(`signcraft-claim-owner:${owner}`).digest().readBigInt64BE(0).toString()

/**
 * The embedded database belongs to one process at a time (PGlite holds its data directory), so
 * every claim made under another id was made by a process that has ended.
 */
export const layerSingleProcessOwner: Layer.Layer<ClaimOwner> = Layer.sync(ClaimOwner, () => {
  const id = randomUUID()
  return ClaimOwner.of({ id, isGone: (owner) => Effect.succeed(owner !== id) })
})

/**
 * On PostgreSQL any number of processes share the database. Each holds a session-level advisory
 * lock named by its id on a connection of its own for as long as it lives; the server releases it
 * when that session ends, which a killed process's does. An owner is gone when its lock can be
 * taken: it is then released again in the same statement.
 */
export const layerSessionLockOwner: Layer.Layer<ClaimOwner, SqlError, SqlClient.SqlClient> = Layer.effect(
  ClaimOwner,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    const connection = yield* sql.reserve
    yield* connection.executeUnprepared("SELECT pg_advisory_lock($1::bigint)", [lockKeyOf(id)], undefined)
    const isGone = (owner: string) =>
      owner === id ? Effect.succeed(false) : sql<{ readonly gone: boolean }>`
        SELECT CASE WHEN pg_try_advisory_lock(${lockKeyOf(owner)}::bigint)
          THEN pg_advisory_unlock(${lockKeyOf(owner)}::bigint) ELSE false END AS gone`.pipe(
        Effect.map((rows) => rows[0]?.gone === true)
      )
    return ClaimOwner.of({ id, isGone })
  })
)
