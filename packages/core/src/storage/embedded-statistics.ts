import { Cause, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./rows.js"

// PostgreSQL's autovacuum ANALYZEs a table once the rows changed since its last ANALYZE exceed
// autovacuum_analyze_threshold (50) plus autovacuum_analyze_scale_factor (0.1) of its rows
// (https://www.postgresql.org/docs/current/routine-vacuuming.html#VACUUM-FOR-STATISTICS).
const THRESHOLD_ROWS = 50
const SCALE_FACTOR = 0.1

// The statistics target of this pass's ANALYZE: it samples 300 rows per unit, and the sample
// lives in PGlite's memory, which never shrinks. At PostgreSQL's default of 100 (30,000 rows,
// about 45 MB of order events) the embedded server's peak grew by about 70 MB; 10 samples 3,000
// rows, enough to tell an index scan from a whole-table scan, and holds the one backend a tenth
// as long.
const STATISTICS_TARGET = 10

/** How often the embedded database looks for tables whose statistics are stale. */
export const STATISTICS_CHECK_INTERVAL = Duration.seconds(2)

const StaleTable = Schema.Struct({ name: Schema.String })
const staleTables = decodeRows(StaleTable)

/**
 * ANALYZEs every table that has changed enough since its last ANALYZE, as autovacuum would, and
 * answers their names. `reltuples` is -1 for a table never analyzed; it counts as empty.
 */
export const analyzeStaleTables = (sql: SqlClient.SqlClient): Effect.Effect<ReadonlyArray<string>> =>
  sql`
    SELECT format('%I.%I', s.schemaname, s.relname) AS name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.n_mod_since_analyze > ${THRESHOLD_ROWS} + ${SCALE_FACTOR} * greatest(c.reltuples, 0)
    ORDER BY name`.pipe(
    Effect.flatMap(staleTables),
    Effect.flatMap((tables) => {
      const names = tables.map((table) => table.name)
      if (names.length === 0) return Effect.succeed(names)
      const analyze = Effect.andThen(
        sql.unsafe(`SET LOCAL default_statistics_target = ${STATISTICS_TARGET}`),
        sql.unsafe(`ANALYZE ${names.join(", ")}`)
      )
      return Effect.as(sql.withTransaction(analyze), names)
    }),
    Effect.orDie
  )

/**
 * Keeps the embedded database's planner statistics current for as long as the layer lives.
 * PGlite runs PostgreSQL as a single backend, without autovacuum, so nothing else ANALYZEs it:
 * a statement planned while its tables were nearly empty kept a plan that scans a whole table
 * (a connection keeps a prepared statement's generic plan until its tables' statistics change),
 * and an order write's cost in the database grew with every order stored, from 290 to 740 us of
 * PGlite per order over 20 s of writes; with statistics kept current it stayed level.
 */
export const layerEmbeddedStatistics = (interval: Duration.Input = STATISTICS_CHECK_INTERVAL) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Housekeeping, not work anyone asked for: its statements make no spans.
      const pass = analyzeStaleTables(sql).pipe(
        Effect.catchCause((cause) => Effect.logWarning(`embedded database statistics pass failed: ${Cause.pretty(cause)}`)),
        Effect.withTracerEnabled(false)
      )
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(interval), pass)))
    })
  )
