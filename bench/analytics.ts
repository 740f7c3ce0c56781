/**
 * The 365-day analytics summary over 1,000,000 orders. Target: p50 < 50 ms, on the embedded
 * database and on PostgreSQL.
 *
 *   node --import tsx bench/analytics.ts        (or `npm run bench`)
 *
 * For each database: one Store gets BENCH_ORDERS orders (default 1,000,000) spread over the last
 * 400 days in six currencies (two of them malformed), inserted set-based with
 * `INSERT … SELECT generate_series` in batches (the daily rollup triggers run per statement,
 * as for an operator import), plus 10,000 products. Then `GET /api/v3/analytics/summary?period=365d`
 * runs through the real web handler (authentication, quotas, envelope) BENCH_RUNS times after
 * a warm-up; p50 and p95 are reported, and, for comparison, a few runs of the same aggregation
 * straight over the orders table (what the rollup saves). PostgreSQL runs when DATABASE_URL is
 * set; a throwaway database is created and dropped. Bounded: a fixed number of runs; the inserts dominate (tens of seconds).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { makeWebHandler } from "../packages/core/src/app.js"
import { defaultSettings } from "../packages/core/src/services/settings.js"
import { type DatabaseConfig, layerDatabase } from "../packages/core/src/storage/database.js"
import { appendSummary } from "./summary.js"

const ORDERS = Number(process.env.BENCH_ORDERS ?? "1000000")
const RUNS = Number(process.env.BENCH_RUNS ?? "50")
const WARMUP = 5
const DIRECT_RUNS = 5
const BATCH = 250_000
const TARGET_P50_MS = 50
const OPERATOR_TOKEN = `bench_${Date.now()}`

interface Result {
  readonly database: string
  readonly insertSeconds: number
  readonly p50: number
  readonly p95: number
  readonly directP50: number
  readonly orderCount: number
}

const percentile = (samples: ReadonlyArray<number>, p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

const round = (ms: number) => Math.round(ms * 100) / 100

const runOn = async (name: string, config: DatabaseConfig): Promise<Result> => {
  const runtime = ManagedRuntime.make(layerDatabase(config))
  try {
    const context = await runtime.context()
    const sql = <A>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      runtime.runPromise(Effect.gen(function*() {
        return yield* statement(yield* SqlClient.SqlClient)
      }).pipe(Effect.orDie))
    const app = makeWebHandler(
      {
        settings: defaultSettings({
          environment: "test",
          operatorToken: Redacted.make(OPERATOR_TOKEN),
          rateLimitPerKeyPerMinute: 1_000_000,
          rateLimitPerIpPerMinute: 1_000_000
        })
      },
      Layer.succeedContext(context)
    )
    const operator = async (path: string, body: unknown) => {
      const response = await app.handler(new Request(`http://127.0.0.1/operator/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      }))
      const json = (await response.json()) as { id: number; key: string }
      if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`)
      return json
    }
    const company = await operator("/companies", { name: "Bench" })
    const store = await operator("/stores", { company_id: company.id, name: "Bench store" })
    const key = await operator(`/stores/${store.id}/api-keys`, { mode: "test", scopes: ["analytics:read"] })

    const startedAt = performance.now()
    const now = new Date()
    for (let first = 1; first <= ORDERS; first += BATCH) {
      const last = Math.min(ORDERS, first + BATCH - 1)
      await sql((s) => s`
        INSERT INTO orders (store_id, source, total_amount, currency, created_at, updated_at)
        SELECT ${store.id}, 'import', (i::bigint * 7919) % 100000,
          (ARRAY['USD', 'EUR', 'GBP', 'JPY', 'usd', 'XX'])[1 + i % 6],
          ${now}::timestamptz - make_interval(secs => (i::bigint * 2654435761) % 34560000),
          ${now}::timestamptz
        FROM generate_series(${first}::int, ${last}::int) AS i`)
    }
    await sql((s) => s`
      INSERT INTO products (store_id, kind, title, price_amount, currency, created_at)
      SELECT ${store.id}, CASE WHEN i % 10 = 0 THEN 'legacy' ELSE 'product' END, 'p' || i, 1000, 'USD',
        ${now}::timestamptz - make_interval(secs => (i::bigint * 40503) % 34560000)
      FROM generate_series(1, 10000) AS i`)
    await sql((s) => s`ANALYZE`)
    const insertSeconds = (performance.now() - startedAt) / 1000

    const summaryOnce = async () => {
      const t = performance.now()
      const response = await app.handler(new Request("http://127.0.0.1/api/v3/analytics/summary?period=365d", {
        headers: { authorization: `Bearer ${key.key}` }
      }))
      const body = (await response.json()) as { data: { order_count: number } }
      if (response.status !== 200) throw new Error(`summary answered ${response.status}: ${JSON.stringify(body)}`)
      return { ms: performance.now() - t, orderCount: body.data.order_count }
    }
    for (let i = 0; i < WARMUP; i++) await summaryOnce()
    const samples: Array<number> = []
    let orderCount = 0
    for (let i = 0; i < RUNS; i++) {
      const run = await summaryOnce()
      samples.push(run.ms)
      orderCount = run.orderCount
    }

    // What the rollup saves: the same totals straight from the orders table.
    const direct: Array<number> = []
    const endsBefore = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    const startsAt = new Date(endsBefore.getTime() - 365 * 86_400_000)
    for (let i = 0; i < DIRECT_RUNS; i++) {
      const t = performance.now()
      await sql((s) => s`
        SELECT currency, sum(total_amount), count(*) FROM orders
        WHERE store_id = ${store.id} AND created_at >= ${startsAt} AND created_at < ${endsBefore}
        GROUP BY currency`)
      direct.push(performance.now() - t)
    }
    await app.dispose()
    return {
      database: name,
      insertSeconds: Math.round(insertSeconds * 10) / 10,
      p50: round(percentile(samples, 50)),
      p95: round(percentile(samples, 95)),
      directP50: round(percentile(direct, 50)),
      orderCount
    }
  } finally {
    await runtime.dispose()
  }
}

const adminQuery = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    )
  )

// The PostgreSQL leg runs when DATABASE_URL is set (`npm run bench -- --postgres` sets it), as in
// every other benchmark of the run.
const postgresAdminUrl = async (): Promise<string | undefined> => {
  const candidate = process.env.DATABASE_URL
  if (candidate === undefined || candidate === "") return undefined
  try {
    await Promise.race([
      adminQuery(candidate, "SELECT 1"),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 3000))
    ])
    return candidate
  } catch {
    return undefined
  }
}

const results: Array<Result> = []
const dataDir = mkdtempSync(join(tmpdir(), "signcraft-bench-analytics-"))
try {
  console.log(`analytics summary bench: ${ORDERS.toLocaleString("en")} orders, ${RUNS} timed runs per database`)
  results.push(await runOn("embedded", { _tag: "Embedded", location: { dataDir } }))
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
const admin = await postgresAdminUrl()
if (admin === undefined) {
  console.log("PostgreSQL: skipped (DATABASE_URL is not set or not reachable)")
} else {
  const name = `signcraft_bench_${Date.now()}`
  await adminQuery(admin, `CREATE DATABASE ${name}`)
  try {
    const target = new URL(admin)
    target.pathname = `/${name}`
    results.push(await runOn("postgres", { _tag: "Postgres", url: target.toString(), maxConnections: 4 }))
  } finally {
    await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

console.table(results.map((r) => ({
  database: r.database,
  "orders in window": r.orderCount,
  "insert (s)": r.insertSeconds,
  "summary p50 (ms)": r.p50,
  "summary p95 (ms)": r.p95,
  "direct GROUP BY p50 (ms)": r.directP50,
  "p50 target": r.p50 < TARGET_P50_MS ? `met (< ${TARGET_P50_MS} ms)` : `MISSED (>= ${TARGET_P50_MS} ms)`
})))
appendSummary([
  `| analytics summary, 365 days over ${ORDERS.toLocaleString("en")} orders (serial) | p50 ms | p95 ms | target | verdict |`,
  "|---|---:|---:|---:|---|",
  ...results.map((r) =>
    `| ${r.database} | ${r.p50} | ${r.p95} | < ${TARGET_P50_MS} ms | ${r.p50 < TARGET_P50_MS ? "PASS" : "BELOW"} |`
  )
].join("\n"))
