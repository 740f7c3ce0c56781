import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { type Duration, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { mkdirSync } from "node:fs"
import { checkDatabaseSchema, type InvalidDatabaseSchema } from "./database-schema.js"
import { initialiseInChild, isInitialised } from "./embedded-initdb.js"
import { openPgliteConnection } from "./pglite-wire.js"
import { layerPlannerStatistics } from "./planner-statistics.js"
import { prepareSchema } from "./schema-setup.js"

// PostgreSQL's default of 128 MB of shared buffers lives in PGlite's heap for the process's life.
// 16 MB was too few for sustained order writes: pages evicted were read back through PGlite's file
// system, more as the tables grew, and each read back costs CPU; 32 MB keeps an order-writing
// workload's pages in memory for a modest rise in peak memory (measured in bench/RESULTS.md).
// Start parameters leave the data directory's own settings alone.
const EMBEDDED_SETTINGS = ["-c", "shared_buffers=32MB"]

// The statistics target of the embedded database's ANALYZEs: it samples 300 rows per unit, and
// the sample lives in PGlite's memory, which never shrinks. PostgreSQL's default of 100 (30,000
// rows) raised the embedded server's peak memory noticeably (bench/RESULTS.md); 10 samples 3,000
// rows, enough to tell an index scan from a whole-table scan, and holds the one backend a tenth as
// long (docs/planner-statistics.md).
const EMBEDDED_STATISTICS_TARGET = 10

/** Where the embedded database keeps its files; `memory` keeps nothing on disk. */
export type EmbeddedLocation = { readonly dataDir: string } | "memory"

/** Options of {@link layerEmbedded}. */
export interface EmbeddedOptions {
  /** How often the planner statistics are checked (planner-statistics.ts). */
  readonly statisticsInterval?: Duration.Input | undefined
  /** The schema the database works in (database-schema.ts); `signcraft` by default. */
  readonly schema?: string | undefined
}

/**
 * A `SqlClient` over an embedded PGlite database, through the production PostgreSQL
 * driver: the same SQL, parsers and migrations as `DATABASE_URL` mode, in `schema` alone: it is
 * created when missing, or moved out of `public` from an earlier release (schema-setup.ts). Its
 * planner statistics are kept current every `statisticsInterval` (planner-statistics.ts): PGlite
 * has no autovacuum.
 */
export const layerEmbedded = (
  location: EmbeddedLocation,
  options: EmbeddedOptions = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError | InvalidDatabaseSchema> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const schema = yield* checkDatabaseSchema(options.schema)
      const db = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          if (location !== "memory") {
            mkdirSync(location.dataDir, { recursive: true })
            if (!isInitialised(location.dataDir)) await initialiseInChild(location.dataDir)
          }
          // PGlite answers a connection's startup message without applying its parameters: the
          // schema is the backend's own setting, which is the one session's.
          const searchPath = ["-c", `search_path=${schema}`]
          const startParams = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS, ...searchPath]
          const instance = location === "memory" ? new PGlite({ startParams }) : new PGlite(location.dataDir, { startParams })
          await instance.waitReady
          return instance
        }),
        (instance) => Effect.promise(() => instance.close())
      )
      return PgClient.layer({
        stream: () => openPgliteConnection(db),
        ssl: false,
        username: "postgres",
        database: "postgres",
        // PGlite is a single backend: one connection, one statement at a time.
        maxConnections: 1
      }).pipe((client) =>
        Layer.provideMerge(
          Layer.merge(
            Layer.effectDiscard(prepareSchema(schema)),
            layerPlannerStatistics({ schema, interval: options.statisticsInterval, statisticsTarget: EMBEDDED_STATISTICS_TARGET })
          ),
          client
        )
      )
    })
  )
