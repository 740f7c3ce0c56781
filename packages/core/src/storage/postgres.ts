import { PgClient } from "@effect/sql-pg"
import { type Duration, Effect, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { checkDatabaseSchema, type InvalidDatabaseSchema } from "./database-schema.js"
import { layerPlannerStatistics } from "./planner-statistics.js"
import { prepareSchema } from "./schema-setup.js"

/** The most connections a process opens to PostgreSQL unless told otherwise. */
export const DEFAULT_MAX_CONNECTIONS = 10

/** Options of {@link layerPostgres}. */
export interface PostgresOptions {
  /** The most connections the pool opens at once. */
  readonly maxConnections?: number | undefined
  /** How often the planner statistics are checked (planner-statistics.ts). */
  readonly statisticsInterval?: Duration.Input | undefined
  /** The schema every connection works in (database-schema.ts); `signcraft` by default. */
  readonly schema?: string | undefined
  /** The `application_name` of every connection (connection-usage.ts counts them by it). */
  readonly applicationName?: string | undefined
}

/**
 * A `SqlClient` over a PostgreSQL server reached by connection string, whose connections see
 * `schema` alone: it is created when missing, or moved out of `public` from an earlier release
 * (schema-setup.ts). The tables' planner statistics are checked every `statisticsInterval`
 * (planner-statistics.ts), at the database's own statistics target, so a new database does not
 * wait a minute for autovacuum's first look.
 */
export const layerPostgres = (
  url: string,
  options: PostgresOptions = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError | InvalidDatabaseSchema> =>
  Layer.unwrap(
    Effect.map(checkDatabaseSchema(options.schema), (schema) =>
      PgClient.layer({
        url: Redacted.make(url),
        maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
        ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName }),
        // A startup parameter outranks the URL's `options` and the role's and database's own
        // settings, so nothing but signcraft's schema is ever searched, or created in, by name.
        startupParameters: { search_path: schema }
      }).pipe((client) =>
        Layer.provideMerge(
          Layer.merge(
            Layer.effectDiscard(prepareSchema(schema)),
            layerPlannerStatistics({ schema, interval: options.statisticsInterval })
          ),
          client
        )
      ))
  )
