import { Cause, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./rows.js"

// PostgreSQL's autovacuum ANALYZEs a table once the rows changed since its last ANALYZE exceed
// autovacuum_analyze_threshold (50) plus autovacuum_analyze_scale_factor (0.1) of its rows
// (https://www.postgresql.org/docs/current/routine-vacuuming.html#VACUUM-FOR-STATISTICS).
const THRESHOLD_ROWS = 50
const SCALE_FACTOR = 0.1

// How often a database is checked for tables whose statistics are stale, unless told otherwise.
const STATISTICS_CHECK_INTERVAL = Duration.seconds(2)

const StaleTable = Schema.Struct({ name: Schema.String })
const staleTables = decodeRows(StaleTable)

/** Which tables the statistics pass looks after, and how. */
export interface StatisticsScope {
  /** The schema whose tables are analyzed: signcraft's own; the host's tables are never touched. */
  readonly schema: string
  /** The statistics target of its ANALYZEs; the database's own when absent. */
  readonly statisticsTarget?: number | undefined
}

/**
 * ANALYZEs every table of `scope.schema` that has changed enough since its last ANALYZE, as
 * autovacuum would, and answers their names: at `scope.statisticsTarget` when given (in a
 * transaction of its own, the session's setting untouched), otherwise at the database's own
 * target. Only tables the current role may ANALYZE (it owns them, or is a superuser) are
 * considered; `reltuples` is -1 for a table never analyzed, which counts as empty.
 */
export const analyzeStaleTables = (
  sql: SqlClient.SqlClient,
  scope: StatisticsScope
): Effect.Effect<ReadonlyArray<string>> =>
  sql`
    SELECT format('%I.%I', s.schemaname, s.relname) AS name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.schemaname = ${scope.schema}
      AND s.n_mod_since_analyze > ${THRESHOLD_ROWS} + ${SCALE_FACTOR} * greatest(c.reltuples, 0)
      AND pg_has_role(c.relowner, 'USAGE')
    ORDER BY name`.pipe(
    Effect.flatMap(staleTables),
    Effect.flatMap((tables) => {
      const names = tables.map((table) => table.name)
      if (names.length === 0) return Effect.succeed(names)
      const analyze = sql.unsafe(`ANALYZE ${names.join(", ")}`)
      return Effect.as(
        scope.statisticsTarget === undefined
          ? analyze
          : sql.withTransaction(Effect.andThen(sql.unsafe(`SET LOCAL default_statistics_target = ${scope.statisticsTarget}`), analyze)),
        names
      )
    }),
    Effect.orDie
  )

/**
 * Keeps the planner's statistics current for as long as the layer lives: every `interval`, the
 * tables of `schema` autovacuum would ANALYZE are analyzed (at `statisticsTarget`, when given).
 *
 * A prepared statement keeps its generic plan until its tables' statistics change, and the
 * service's batch statements were planned while their tables were nearly empty: a hash join over
 * the whole idempotency_keys table, for every batch, as the table grew. PGlite runs PostgreSQL as
 * a single backend without autovacuum, so nothing else ANALYZEs it, and an order write's cost in
 * the database grew with every order stored. A PostgreSQL server's autovacuum first looks at a new
 * database only after autovacuum_naptime (a minute), and the plans made on empty tables scan them
 * whole until then (docs/planner-statistics.md; measured in bench/RESULTS.md).
 * Afterwards the pass and autovacuum share the work: whichever ANALYZEs a table first resets its
 * count of changes for the other.
 */
export const layerPlannerStatistics = (options: StatisticsScope & { readonly interval?: Duration.Input | undefined }) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Housekeeping, not work anyone asked for: its statements make no spans.
      const pass = analyzeStaleTables(sql, options).pipe(
        Effect.catchCause((cause) => Effect.logWarning(`planner statistics pass failed: ${Cause.pretty(cause)}`)),
        Effect.withTracerEnabled(false)
      )
      const interval = options.interval ?? STATISTICS_CHECK_INTERVAL
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(interval), pass)))
    })
  )
