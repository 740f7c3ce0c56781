import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Queue, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createHash } from "node:crypto"

// PostgreSQL keeps a channel name to NAMEDATALEN - 1 bytes, cutting longer LISTENs short and
// refusing longer NOTIFYs.
const MAX_CHANNEL_BYTES = 63

/**
 * The database-wide name of `channel` for the deployment in `schema`: channels are shared by
 * every schema of a database, and a deployment must hear only its own. Names that would be too
 * long carry a digest of the schema instead of the schema.
 */
export const channelIn = (schema: string, channel: string): string => {
  const named = `${channel}.${schema}`
  if (Buffer.byteLength(named) <= MAX_CHANNEL_BYTES) return named
  return `${channel}.${createHash("sha256").update(schema).digest("hex").slice(0, 16)}`
}

/**
 * How one process tells the others of its deployment that something it caches changed. On
 * PostgreSQL any number of processes share the database, and signals are LISTEN/NOTIFY on
 * channels of the deployment's schema ({@link channelIn}); the embedded database belongs to one
 * process, so there is nobody else to tell.
 */
export class ChangeSignals extends Context.Service<ChangeSignals, {
  /** Whether other processes can share this database. */
  readonly shared: boolean
  /** Sends `payload` on `channel` to every listening process when the current transaction commits. */
  readonly signal: (channel: string, payload: string) => Effect.Effect<void>
  /**
   * The signals sent on `channel` from now on, by any process (this one included), once the
   * database has confirmed the subscription; the queue fails when the connection is lost.
   */
  readonly listen: (channel: string) => Effect.Effect<Queue.Dequeue<string, SqlError>, SqlError, Scope.Scope>
}>()("signcraft/ChangeSignals") {
  /** Signals over PostgreSQL's LISTEN/NOTIFY, heard only by the deployments of `schema`. */
  static readonly layerShared = (schema: string) => Layer.effect(
    ChangeSignals,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient
      return ChangeSignals.of({
        shared: true,
        // pg_notify inside a transaction is delivered when it commits, and not at all if it rolls back.
        signal: (channel, payload) => Effect.orDie(Effect.asVoid(sql`SELECT pg_notify(${channelIn(schema, channel)}, ${payload})`)),
        listen: (channel) =>
          Effect.gen(function*() {
            const notifications = yield* pg.listen(channelIn(schema, channel))
            const payloads = yield* Queue.unbounded<string, SqlError>()
            yield* Effect.forkScoped(
              Effect.forever(Effect.flatMap(Queue.take(notifications), (notice) => Queue.offer(payloads, notice.payload))).pipe(
                Effect.catch((error) => Queue.fail(payloads, error))
              )
            )
            return payloads
          })
      })
    })
  )

  /** The embedded database: one process, nobody to signal. */
  static readonly layerSingleProcess = Layer.succeed(
    ChangeSignals,
    ChangeSignals.of({
      shared: false,
      signal: () => Effect.void,
      listen: () => Effect.never
    })
  )
}
