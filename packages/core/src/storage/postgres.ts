import { PgClient } from "@effect/sql-pg"
import { type Duration, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { layerPlannerStatistics } from "./planner-statistics.js"

/**
 * A `SqlClient` over a PostgreSQL server reached by connection string. The tables' planner
 * statistics are checked every `statisticsInterval` (planner-statistics.ts), at the database's
 * own statistics target, so a new database does not wait a minute for autovacuum's first look.
 */
export const layerPostgres = (
  url: string,
  options: { readonly maxConnections?: number; readonly statisticsInterval?: Duration.Input } = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  PgClient.layer({ url: Redacted.make(url), maxConnections: options.maxConnections ?? 10 }).pipe((client) =>
    Layer.provideMerge(layerPlannerStatistics({ interval: options.statisticsInterval }), client)
  )
