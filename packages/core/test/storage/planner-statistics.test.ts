import { type Duration, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterEach, describe, expect, it } from "vitest"
import type { DatabaseConfig } from "../../src/storage/database.js"
import { layerEmbedded } from "../../src/storage/embedded.js"
import { DEFAULT_DATABASE_SCHEMA } from "../../src/storage/database-schema.js"
import { analyzeStaleTables } from "../../src/storage/planner-statistics.js"
import { layerPostgres } from "../../src/storage/postgres.js"
import { databaseVariants } from "@signcraft/test-kit"
import { statementRecorder } from "@signcraft/test-kit/statements"

type Sql = SqlClient.SqlClient

// One pass over signcraft's schema, where the tests' connections create their tables.
const analyzeOwn = (sql: Sql) => analyzeStaleTables(sql, { schema: DEFAULT_DATABASE_SCHEMA })

// When a table's planner statistics were last gathered, if ever.
const lastAnalyzed = (sql: Sql, table: string) =>
  Effect.map(
    sql<{ last_analyze: Date | null }>`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = ${table}`,
    (rows) => rows[0]?.last_analyze ?? null
  )

// A table of `k` values that only these tests ANALYZE: autovacuum is off for it on PostgreSQL.
const createTable = (sql: Sql, table: string) =>
  sql.unsafe(`CREATE TABLE ${table} (id serial PRIMARY KEY, k text) WITH (autovacuum_enabled = false)`)

// Inserts `count` rows into `table`, and makes the counts visible to the statistics views from
// the next statement on (PostgreSQL publishes them at most once a second otherwise).
const insertRows = (sql: Sql, table: string, count: number) =>
  Effect.gen(function*() {
    yield* sql.unsafe(`INSERT INTO ${table} (k) SELECT md5(g::text) FROM generate_series(1, ${count}) g`)
    yield* sql`SELECT pg_stat_force_next_flush()`
  })

// Waits, bounded (100 looks 0.1 s apart), for the pass to ANALYZE `table`.
const awaitAnalyzed = async (run: <A>(statement: (sql: Sql) => Effect.Effect<A, unknown>) => Promise<A>, table: string) => {
  let analyzed: Date | null = null
  for (let look = 0; look < 100 && analyzed === null; look += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    analyzed = await run((sql) => lastAnalyzed(sql, table))
  }
  return analyzed
}

// A prepared statement keeps the plan it made on nearly empty tables until their statistics
// change. The embedded database has no autovacuum (PGlite is one backend), and a PostgreSQL
// server's first looks at a new database a minute on: signcraft ANALYZEs what autovacuum would,
// every few seconds (docs/planner-statistics.md: plans made when tables were empty scanned them whole).
describe.each(databaseVariants())("the planner statistics ($name database)", (variant) => {
  const cleanups: Array<() => Promise<void>> = []
  // Every cleanup runs, latest first, even when one fails (the first failure is the test's).
  afterEach(async () => {
    const failures: Array<unknown> = []
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => failures.push(error))
    if (failures.length > 0) throw failures[0]
  })
  const layerFor = (config: DatabaseConfig, interval: Duration.Input) =>
    config._tag === "Postgres" ? layerPostgres(config.url, { statisticsInterval: interval }) : layerEmbedded("memory", { statisticsInterval: interval })
  const open = async (interval: Duration.Input, tracer: Layer.Layer<never> = Layer.empty) => {
    const db = await variant.create()
    cleanups.push(db.cleanup)
    const runtime = ManagedRuntime.make(layerFor(db.config, interval).pipe(Layer.provide(tracer)))
    cleanups.push(() => runtime.dispose())
    return <A>(statement: (sql: Sql) => Effect.Effect<A, unknown>) => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement))
  }

  it("analyzes a table once its changes pass 50 rows plus a tenth of its size, as autovacuum does", async () => {
    // No pass of its own in this test's time: each step calls one.
    const run = await open("24 hours")
    await run((sql) => createTable(sql, "few"))
    await run((sql) => insertRows(sql, "few", 50))
    expect(await run(analyzeOwn)).toEqual([])
    await run((sql) => insertRows(sql, "few", 1))
    expect(await run(analyzeOwn)).toEqual(["signcraft.few"])
    expect(await run((sql) => lastAnalyzed(sql, "few"))).not.toBeNull()
    // Now 51 rows: the next ANALYZE comes after 50 + 5.1 more changes, not 50.
    await run((sql) => insertRows(sql, "few", 55))
    expect(await run(analyzeOwn)).toEqual([])
    await run((sql) => insertRows(sql, "few", 1))
    expect(await run(analyzeOwn)).toEqual(["signcraft.few"])
  })

  it("leaves alone the tables the role may not ANALYZE", async () => {
    // PostgreSQL would skip them with a warning, on every pass: they are not asked for.
    const run = await open("24 hours")
    const role = `signcraft_statistics_${Math.random().toString(36).slice(2, 10)}`
    await run((sql) => sql.unsafe(`CREATE ROLE ${role}`))
    cleanups.push(() => run((sql) => Effect.asVoid(Effect.andThen(sql.unsafe(`DROP OWNED BY ${role}`), sql.unsafe(`DROP ROLE ${role}`)))))
    for (const table of ["mine", "theirs"]) {
      await run((sql) => createTable(sql, table))
      await run((sql) => insertRows(sql, table, 100))
    }
    await run((sql) => sql.unsafe(`ALTER TABLE mine OWNER TO ${role}`))
    await run((sql) => sql.unsafe(`GRANT USAGE ON SCHEMA ${DEFAULT_DATABASE_SCHEMA} TO ${role}`))
    const analyzed = await run((sql) =>
      sql.withTransaction(Effect.andThen(sql.unsafe(`SET LOCAL ROLE ${role}`), analyzeOwn(sql)))
    )
    expect(analyzed).toEqual(["signcraft.mine"])
  })

  it("leaves alone the tables of every other schema, the host's public ones too", async () => {
    const run = await open("24 hours")
    await run((sql) => createTable(sql, "ours"))
    await run((sql) => createTable(sql, "public.theirs"))
    await run((sql) => insertRows(sql, "ours", 100))
    await run((sql) => insertRows(sql, "public.theirs", 100))
    expect(await run(analyzeOwn)).toEqual(["signcraft.ours"])
    expect(await run((sql) => lastAnalyzed(sql, "theirs"))).toBeNull()
  })

  it("runs by itself while the database is open, and makes no spans", async () => {
    // The pass is housekeeping: a trace of the app (or a test counting a request's statements)
    // must not see it.
    const recorder = statementRecorder()
    const run = await open("0.2 seconds", recorder.layer)
    await run((sql) => createTable(sql, "busy"))
    await run((sql) => insertRows(sql, "busy", 1000))
    expect(await awaitAnalyzed(run, "busy")).not.toBeNull()
    expect(recorder.statements().filter((text) => /ANALYZE|pg_stat_user_tables/.test(text))).toEqual([])
  })

  // The embedded sample lives in PGlite's memory, which never shrinks: a target of 10. A server's
  // statistics stay at its own target, which autovacuum's ANALYZEs use too.
  const target = variant.name === "embedded" ? 10 : 100
  it(`samples at a statistics target of ${target}, and leaves the session's setting alone`, async () => {
    const run = await open("0.2 seconds")
    await run((sql) => createTable(sql, "wide"))
    await run((sql) => insertRows(sql, "wide", 2000))
    expect(await awaitAnalyzed(run, "wide")).not.toBeNull()
    // A histogram has at most target + 1 bounds; 2,000 distinct values fill it.
    const bounds = await run((sql) =>
      sql<{ bounds: number }>`SELECT array_length(histogram_bounds::text::text[], 1) AS bounds FROM pg_stats WHERE tablename = 'wide' AND attname = 'k'`
    )
    expect(bounds[0]?.bounds).toBe(target + 1)
    expect(await run((sql) => sql<{ default_statistics_target: string }>`SHOW default_statistics_target`)).toEqual([{ default_statistics_target: "100" }])
  })
})
