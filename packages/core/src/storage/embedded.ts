import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { type Duration, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { mkdirSync } from "node:fs"
import { initialiseInChild, isInitialised } from "./embedded-initdb.js"
import { openPgliteConnection } from "./pglite-wire.js"
import { layerPlannerStatistics } from "./planner-statistics.js"

// PostgreSQL's default of 128 MB of shared buffers lives in PGlite's heap for the process's life.
// 16 MB was too few for sustained order writes: pages evicted were read back through PGlite's file
// system, more as the tables grew. Over three rounds of idempotent order writes (about 25,000
// orders) PGlite read 204,000 pages with 16 MB and 1,200 with 32 MB, and the third round cost
// 1,400-1,450 us of CPU per order against 1,070-1,210, for about 15 MB more peak memory. Start
// parameters leave the data directory's own settings alone.
const EMBEDDED_SETTINGS = ["-c", "shared_buffers=32MB"]

// The statistics target of the embedded database's ANALYZEs: it samples 300 rows per unit, and
// the sample lives in PGlite's memory, which never shrinks. At PostgreSQL's default of 100
// (30,000 rows, about 45 MB of order events) the embedded server's peak grew by about 70 MB; 10
// samples 3,000 rows, enough to tell an index scan from a whole-table scan, and holds the one
// backend a tenth as long.
const EMBEDDED_STATISTICS_TARGET = 10

/** Where the embedded database keeps its files; `memory` keeps nothing on disk. */
export type EmbeddedLocation = { readonly dataDir: string } | "memory"

/**
 * A `SqlClient` over an embedded PGlite database, through the production PostgreSQL
 * driver: the same SQL, parsers and migrations as `DATABASE_URL` mode. Its planner statistics
 * are kept current every `statisticsInterval` (planner-statistics.ts): PGlite has no autovacuum.
 */
export const layerEmbedded = (
  location: EmbeddedLocation,
  statisticsInterval?: Duration.Input
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const db = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          if (location !== "memory") {
            mkdirSync(location.dataDir, { recursive: true })
            if (!isInitialised(location.dataDir)) await initialiseInChild(location.dataDir)
          }
          const options = { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] }
          const instance = location === "memory" ? new PGlite(options) : new PGlite(location.dataDir, options)
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
      }).pipe((client) => Layer.provideMerge(
        layerPlannerStatistics({ interval: statisticsInterval, statisticsTarget: EMBEDDED_STATISTICS_TARGET }),
        client
      ))
    })
  )
