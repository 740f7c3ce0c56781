import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createHash } from "node:crypto"
import { decodeRows, RowId } from "./rows.js"

/** The migrator's table: where it is, signcraft's data is. */
export const MIGRATIONS_TABLE = "signcraft_migrations"

/**
 * What the releases before signcraft had a schema of its own created in `public`, by the migration
 * that created it. Indexes, constraints, triggers, row types and identity sequences belong to
 * their table and move with it. Only what a recorded migration created is moved: a table of the
 * same name made by someone else is left where it is.
 */
const PUBLIC_OBJECTS: ReadonlyArray<{
  readonly migration: number
  readonly tables: ReadonlyArray<string>
  readonly functions?: ReadonlyArray<string>
}> = [
  {
    migration: 1,
    tables: [
      "companies",
      "stores",
      "persons",
      "memberships",
      "api_keys",
      "idempotency_keys",
      "rate_limit_windows",
      "rate_limit_cooldowns",
      "deprecated_usage"
    ]
  },
  { migration: 2, tables: ["customisers", "events"] },
  {
    migration: 3,
    tables: ["integrations", "products", "orders", "order_daily_totals"],
    functions: ["order_daily_totals_add", "order_daily_totals_remove"]
  },
  { migration: 4, tables: ["webhook_subscriptions", "webhook_deliveries", "webhook_attempts", "quote_counters", "quotes"] },
  {
    migration: 5,
    tables: [
      "oauth_signing_keys",
      "oauth_clients",
      "oauth_registration_attempts",
      "oauth_sessions",
      "oauth_grants",
      "oauth_codes",
      "oauth_refresh_tokens",
      "oauth_access_tokens"
    ]
  },
  { migration: 8, tables: ["service_secrets"] }
]

// Advisory locks are shared by the whole database: each schema's set-up has a key of its own, so
// deployments in other schemas never wait for it.
const setUpLockKey = (schema: string): string =>
  createHash("sha256").update(`signcraft schema set-up ${schema}`).digest().readBigInt64BE(0).toString()

const lockSetUp = (sql: SqlClient.SqlClient, schema: string) =>
  sql`SELECT pg_advisory_xact_lock(${setUpLockKey(schema)}::bigint)`

const holdsMigrations = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.map(
    sql`
      SELECT 1 AS found FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND c.relname = ${MIGRATIONS_TABLE} AND c.relkind = 'r'`,
    (rows) => rows.length > 0
  )

const schemaExists = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.map(sql`SELECT 1 AS found FROM pg_namespace WHERE nspname = ${schema}`, (rows) => rows.length > 0)

const recordedMigrations = decodeRows(Schema.Struct({ migration_id: RowId }))

// Moves signcraft's objects from `public` into `schema`, in the caller's transaction.
const moveFromPublic = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.gen(function*() {
    const recorded = yield* recordedMigrations(yield* sql`SELECT migration_id FROM public.${sql(MIGRATIONS_TABLE)}`)
    const ran = new Set(recorded.map((row) => row.migration_id))
    for (const created of PUBLIC_OBJECTS) {
      if (!ran.has(created.migration)) continue
      for (const table of created.tables) yield* sql`ALTER TABLE public.${sql(table)} SET SCHEMA ${sql(schema)}`
      for (const fn of created.functions ?? []) yield* sql`ALTER FUNCTION public.${sql(fn)}() SET SCHEMA ${sql(schema)}`
    }
    yield* sql`ALTER TABLE public.${sql(MIGRATIONS_TABLE)} SET SCHEMA ${sql(schema)}`
  })

/**
 * Makes `schema` ready for the migrations: creates it when missing and, when it holds no
 * migrations table but `public` does (a database of a release that kept everything there), moves
 * signcraft's objects out of `public` into it. One transaction under a per-schema advisory lock,
 * so processes starting together make or move it once; moving out of `public` also holds
 * `public`'s lock (always taken second), so deployments of two schemas never both move it.
 */
export const prepareSchema = (schema: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* lockSetUp(sql, schema)
        if (yield* holdsMigrations(sql, schema)) return
        // Asked only when missing: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege on the
        // database even when the schema is there, and an administrator may have made it.
        if (!(yield* schemaExists(sql, schema))) yield* sql`CREATE SCHEMA ${sql(schema)}`
        if (schema === "public" || !(yield* holdsMigrations(sql, "public"))) return
        yield* lockSetUp(sql, "public")
        if (yield* holdsMigrations(sql, "public")) yield* moveFromPublic(sql, schema)
      })
    )
  })
