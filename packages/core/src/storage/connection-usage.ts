import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { randomBase62 } from "../domain/credentials/api-key.js"

/** The connections this process holds to its database, as its metrics report them. */
export interface ConnectionCounts {
  readonly open: number
  readonly busy: number
  readonly max: number
}

/** How many database connections this process holds open, how many are running a statement, and its bound. */
export class ConnectionUsage extends Context.Service<ConnectionUsage, {
  readonly read: () => Effect.Effect<ConnectionCounts, SqlError>
}>()("signcraft/ConnectionUsage") {
  /**
   * On PostgreSQL, asked of the server: every connection of this process carries the same
   * `application_name`, unique to it, so `pg_stat_activity` counts exactly this process's pool
   * (the statement asking is left out of the busy ones).
   */
  static readonly layerNamedSessions = (applicationName: string, max: number) =>
    Layer.effect(
      ConnectionUsage,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const read = Effect.fn("ConnectionUsage.read")(function*() {
          const rows = yield* sql<{ readonly open: number; readonly busy: number }>`
            SELECT count(*)::int AS open,
              count(*) FILTER (WHERE state <> 'idle' AND pid <> pg_backend_pid())::int AS busy
            FROM pg_stat_activity WHERE application_name = ${applicationName}`
          return { open: rows[0]?.open ?? 0, busy: rows[0]?.busy ?? 0, max }
        })
        return ConnectionUsage.of({ read })
      })
    )

  /** The embedded database is one backend on one connection, always open. */
  static readonly layerSingleConnection = Layer.succeed(
    ConnectionUsage,
    ConnectionUsage.of({ read: () => Effect.succeed({ open: 1, busy: 0, max: 1 }) })
  )
}

/** A name for this process's database sessions: `signcraft-` and 12 random characters. */
export const newApplicationName = (): string => `signcraft-${randomBase62(12)}`
