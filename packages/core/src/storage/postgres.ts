import { PgClient } from "@effect/sql-pg"
import { type Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** A `SqlClient` over a PostgreSQL server reached by connection string. */
export const layerPostgres = (
  url: string,
  options: { readonly maxConnections?: number } = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  PgClient.layer({ url: Redacted.make(url), maxConnections: options.maxConnections ?? 10 })
