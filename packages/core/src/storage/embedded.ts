import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { mkdirSync } from "node:fs"
import { openPgliteConnection } from "./pglite-wire.js"

/** Where the embedded database keeps its files; `memory` keeps nothing on disk. */
export type EmbeddedLocation = { readonly dataDir: string } | "memory"

/**
 * A `SqlClient` over an embedded PGlite database, through the production PostgreSQL
 * driver: the same SQL, parsers and migrations as `DATABASE_URL` mode.
 */
export const layerEmbedded = (
  location: EmbeddedLocation
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const db = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          if (location !== "memory") mkdirSync(location.dataDir, { recursive: true })
          const instance = location === "memory" ? new PGlite() : new PGlite(location.dataDir)
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
      })
    })
  )
