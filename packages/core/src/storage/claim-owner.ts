import { Context, Deferred, Effect, Layer, Schedule } from "effect"
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

// How often the session holding the owner lock is checked: a lost session lost the lock with it,
// and the lock is taken again on a new one this long after at most.
const LOCK_CHECK_INTERVAL = "1 second"

/**
 * On PostgreSQL any number of processes share the database. Each holds a session-level advisory
 * lock named by its id on a connection of its own for as long as it lives; the server releases it
 * when that session ends, which a killed process's does. An owner is gone when its lock can be
 * taken: it is then released again in the same statement. A live process whose session is lost (the
 * database restarted, the network cut) takes its lock again on a new session as soon as it can.
 */
export const layerSessionLockOwner: Layer.Layer<ClaimOwner, SqlError, SqlClient.SqlClient> = Layer.effect(
  ClaimOwner,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    const held = yield* Deferred.make<void, SqlError>()
    const hold = Effect.scoped(Effect.gen(function*() {
      const connection = yield* sql.reserve
      yield* connection.executeUnprepared("SELECT pg_advisory_lock($1::bigint)", [lockKeyOf(id)], undefined)
      yield* Deferred.succeed(held, undefined)
      // Fails, and so ends the scope and its session, once the session is gone.
      return yield* connection.executeUnprepared("SELECT 1", [], undefined).pipe(Effect.delay(LOCK_CHECK_INTERVAL), Effect.forever)
    }))
    // The first lock is taken before the layer is built: a claim is never made without it. Later
    // ones are taken again whenever the session is lost, for as long as the layer lives.
    yield* Effect.forkScoped(hold.pipe(
      Effect.tapError((error) => Deferred.fail(held, error)),
      Effect.retry(Schedule.spaced(LOCK_CHECK_INTERVAL))
    ))
    yield* Deferred.await(held)
    const isGone = (owner: string) =>
      owner === id ? Effect.succeed(false) : sql<{ readonly gone: boolean }>`
        SELECT CASE WHEN pg_try_advisory_lock(${lockKeyOf(owner)}::bigint)
          THEN pg_advisory_unlock(${lockKeyOf(owner)}::bigint) ELSE false END AS gone`.pipe(
        Effect.map((rows) => rows[0]?.gone === true)
      )
    return ClaimOwner.of({ id, isGone })
  })
)
