import { type Duration, Effect, Layer } from "effect"
import { Migrator, type SqlClient } from "effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { ChangeSignals } from "./change-signals.js"
import { type ClaimOwner, layerSessionLockOwner, layerSingleProcessOwner } from "./claim-owner.js"
import { ConnectionUsage, newApplicationName } from "./connection-usage.js"
import { checkDatabaseSchema } from "./database-schema.js"
import type { EmbeddedLocation } from "./embedded.js"
import { layerEmbedded } from "./embedded-lazy.js"
import { migrations } from "./migrations/index.js"
import { DEFAULT_MAX_CONNECTIONS, layerPostgres } from "./postgres.js"
import { MIGRATIONS_TABLE } from "./schema-setup.js"

/** What both kinds of database take: signcraft's schema, and how often its statistics are checked. */
interface DatabaseCommon {
  /**
   * The schema holding every table, sequence, function and trigger signcraft makes, and the
   * only one it reads or writes (`DATABASE_SCHEMA`); `signcraft` by default. A plain lower-case
   * SQL identifier (database-schema.ts); anything else fails the layer.
   */
  readonly schema?: string | undefined
  /** How often the planner statistics pass looks for stale tables (planner-statistics.ts). */
  readonly statisticsInterval?: Duration.Input | undefined
}

/** Where signcraft keeps its data: a PostgreSQL server, or the embedded database. */
export type DatabaseConfig =
  | DatabaseCommon & { readonly _tag: "Postgres"; readonly url: string; readonly maxConnections?: number }
  | DatabaseCommon & { readonly _tag: "Embedded"; readonly location: EmbeddedLocation }

/** Applies every pending migration; safe when several processes start at once. */
export const migrate = Migrator.make({})({ loader: migrations, table: MIGRATIONS_TABLE })

/**
 * The database layer: a `SqlClient` in signcraft's schema, migrated before the layer is built, so
 * nothing above it can run against an unmigrated database, the {@link ChangeSignals} between the
 * processes that share it, this process's {@link ClaimOwner}, and its {@link ConnectionUsage}.
 */
export const layerDatabase = (
  config: DatabaseConfig
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | ChangeSignals | ClaimOwner | ConnectionUsage, unknown> =>
  Layer.unwrap(
    Effect.map(checkDatabaseSchema(config.schema), (schema) => {
      const options = { schema, statisticsInterval: config.statisticsInterval }
      const applicationName = newApplicationName()
      const maxConnections = config._tag === "Postgres" ? config.maxConnections ?? DEFAULT_MAX_CONNECTIONS : 1
      const client = config._tag === "Postgres"
        ? layerPostgres(config.url, { ...options, maxConnections, applicationName })
        : layerEmbedded(config.location, options)
      const signals = config._tag === "Postgres" ? ChangeSignals.layerShared(schema) : ChangeSignals.layerSingleProcess
      const owner = config._tag === "Postgres" ? layerSessionLockOwner : layerSingleProcessOwner
      const usage = config._tag === "Postgres"
        ? ConnectionUsage.layerNamedSessions(applicationName, maxConnections)
        : ConnectionUsage.layerSingleConnection
      return Layer.mergeAll(Layer.effectDiscard(Effect.asVoid(migrate)), signals, owner, usage).pipe(Layer.provideMerge(client))
    })
  )
