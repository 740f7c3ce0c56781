import { Effect, Layer } from "effect"
import { Migrator, type SqlClient } from "effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { ChangeSignals } from "./change-signals.js"
import type { EmbeddedLocation } from "./embedded.js"
import { layerEmbedded } from "./embedded-lazy.js"
import { migrations } from "./migrations/index.js"
import { layerPostgres } from "./postgres.js"

/** Where signcraft keeps its data: a PostgreSQL server, or the embedded database. */
export type DatabaseConfig =
  | { readonly _tag: "Postgres"; readonly url: string; readonly maxConnections?: number }
  | { readonly _tag: "Embedded"; readonly location: EmbeddedLocation }

/** Applies every pending migration; safe when several processes start at once. */
export const migrate = Migrator.make({})({ loader: migrations, table: "signcraft_migrations" })

/**
 * The database layer: a `SqlClient` whose schema is migrated before the layer is
 * built, so nothing above it can run against an unmigrated database, and the
 * {@link ChangeSignals} between the processes that share it.
 */
export const layerDatabase = (
  config: DatabaseConfig
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | ChangeSignals, unknown> => {
  const client = config._tag === "Postgres"
    ? layerPostgres(config.url, config.maxConnections === undefined ? {} : { maxConnections: config.maxConnections })
    : layerEmbedded(config.location)
  const signals = config._tag === "Postgres" ? ChangeSignals.layerShared : ChangeSignals.layerSingleProcess
  return Layer.mergeAll(Layer.effectDiscard(Effect.asVoid(migrate)), signals).pipe(Layer.provideMerge(client))
}
