import { type Duration, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterEach, describe, expect, it } from "vitest"
import { analyzeStaleTables } from "../../packages/core/src/storage/embedded-statistics.js"
import { layerEmbedded } from "../../packages/core/src/storage/embedded.js"
import { statementRecorder } from "../support/statements.js"

type Sql = SqlClient.SqlClient

// When a table's planner statistics were last gathered, if ever.
const lastAnalyzed = (sql: Sql, table: string) =>
  Effect.map(
    sql<{ last_analyze: Date | null }>`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = ${table}`,
    (rows) => rows[0]?.last_analyze ?? null
  )

// Inserts `count` rows into `table`, and makes the counts visible to the statistics views from
// the next statement on (PostgreSQL publishes them at most once a second otherwise).
const insertRows = (sql: Sql, table: string, count: number) =>
  Effect.gen(function*() {
    yield* sql.unsafe(`INSERT INTO ${table} (k) SELECT md5(g::text) FROM generate_series(1, ${count}) g`)
    yield* sql`SELECT pg_stat_force_next_flush()`
  })

// The embedded database has no autovacuum (PGlite is one backend), so signcraft ANALYZEs what
// autovacuum would (issue 15, order writes: plans made when tables were empty scanned them whole).
describe("the embedded database's planner statistics", () => {
  const runtimes: Array<ManagedRuntime.ManagedRuntime<Sql, unknown>> = []
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
  })
  const open = (interval: Duration.Input, tracer: Layer.Layer<never> = Layer.empty) => {
    const runtime = ManagedRuntime.make(layerEmbedded("memory", interval).pipe(Layer.provide(tracer)))
    runtimes.push(runtime)
    return <A>(statement: (sql: Sql) => Effect.Effect<A, unknown>) => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement))
  }

  it("analyzes a table once its changes pass 50 rows plus a tenth of its size, as autovacuum does", async () => {
    // No pass of its own in this test's time: each step calls one.
    const run = open("24 hours")
    await run((sql) => sql`CREATE TABLE few (id serial PRIMARY KEY, k text)`)
    await run((sql) => insertRows(sql, "few", 50))
    expect(await run(analyzeStaleTables)).toEqual([])
    await run((sql) => insertRows(sql, "few", 1))
    expect(await run(analyzeStaleTables)).toEqual(["public.few"])
    expect(await run((sql) => lastAnalyzed(sql, "few"))).not.toBeNull()
    // Now 51 rows: the next ANALYZE comes after 50 + 5.1 more changes, not 50.
    await run((sql) => insertRows(sql, "few", 55))
    expect(await run(analyzeStaleTables)).toEqual([])
    await run((sql) => insertRows(sql, "few", 1))
    expect(await run(analyzeStaleTables)).toEqual(["public.few"])
  })

  it("samples at a statistics target of 10, so the sample stays small in PGlite's memory", async () => {
    const run = open("24 hours")
    await run((sql) => sql`CREATE TABLE wide (id serial PRIMARY KEY, k text)`)
    await run((sql) => insertRows(sql, "wide", 2000))
    expect(await run(analyzeStaleTables)).toEqual(["public.wide"])
    // A histogram has at most target + 1 bounds: 101 at PostgreSQL's default target.
    const bounds = await run((sql) =>
      sql<{ bounds: number }>`SELECT array_length(histogram_bounds::text::text[], 1) AS bounds FROM pg_stats WHERE tablename = 'wide' AND attname = 'k'`
    )
    expect(bounds[0]?.bounds).toBe(11)
    // The target was the pass's own: the session's is PostgreSQL's default still.
    expect(await run((sql) => sql<{ default_statistics_target: string }>`SHOW default_statistics_target`)).toEqual([{ default_statistics_target: "100" }])
  })

  it("runs by itself while the database is open, and makes no spans", async () => {
    // The pass is housekeeping: a trace of the app (or a test counting a request's statements)
    // must not see it.
    const recorder = statementRecorder()
    const run = open("0.2 seconds", recorder.layer)
    await run((sql) => sql`CREATE TABLE busy (id serial PRIMARY KEY, k text)`)
    await run((sql) => insertRows(sql, "busy", 1000))
    // Bounded: 100 looks 0.1 s apart.
    let analyzed: Date | null = null
    for (let look = 0; look < 100 && analyzed === null; look += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      analyzed = await run((sql) => lastAnalyzed(sql, "busy"))
    }
    expect(analyzed).not.toBeNull()
    expect(recorder.statements().filter((text) => /ANALYZE|pg_stat_user_tables/.test(text))).toEqual([])
  })
})
