/**
 * Throughput of authenticated `GET /api/v3/stores/me` against a bare `node:http` server
 * answering the same JSON. Target: signcraft at ≥ 50 % of the bare server's req/s.
 *
 *   node --import tsx bench/stores-me.ts        (or `npm run bench`)
 *
 * Servers: (a) bare node:http, (b) signcraft on the embedded database, (c) signcraft on
 * PostgreSQL when DATABASE_URL is set (a throwaway database is created and dropped).
 * Each runs in its own process, pinned to CPU 0 when `taskset` and two CPUs exist; the
 * load generator (autocannon, in this process) then runs on CPU 1. Rounds interleave the
 * servers so drift on the machine hits them alike; ratios compare within a round.
 * Loopback only. Tunable: BENCH_ROUNDS (3), BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import autocannon from "autocannon"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import {
  canPin,
  cpuMicros,
  freePort,
  peakRssMb,
  pinSelfToCpu1,
  type ServerChild,
  spawnServer,
  stopServer,
  waitUntilAnswering
} from "./processes.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "3")
const SECONDS = Number(process.env.BENCH_SECONDS ?? "10")
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? "2")
const CONNECTIONS = 50
const TARGET_RATIO = 0.5
const PATH = "/api/v3/stores/me"
const OPERATOR_TOKEN = `bench_${Date.now()}_${Math.random().toString(36).slice(2)}`
// High enough that the quotas never answer 429 during a run.
const UNTHROTTLED = "1000000000"

interface Target {
  readonly name: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly server: ServerChild
}

interface Sample {
  /** The 1-minute load average when the run ended: other work on the machine skews figures. */
  readonly load: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly cpuUsPerRequest: number
  readonly failures: number
}

const cleanups: Array<() => Promise<void>> = []

const operatorCall = async (base: string, path: string, body: unknown) => {
  const response = await fetch(`${base}/operator/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const json = (await response.json()) as Record<string, unknown>
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`)
  return json
}

const startBare = async (pin: boolean): Promise<Target> => {
  const port = await freePort()
  const server = spawnServer(["--import", "tsx", "bench/bare-server.ts"], { PORT: String(port) }, pin)
  cleanups.push(() => stopServer(server))
  const url = `http://127.0.0.1:${port}${PATH}`
  await waitUntilAnswering(server, url, 401)
  return { name: "bare node:http", url, headers: { authorization: "Bearer bench" }, server }
}

const startSigncraft = async (name: string, database: Record<string, string>, pin: boolean): Promise<Target> => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = spawnServer(["--conditions=@signcraft/source", "--import", "tsx", "packages/server/src/bin.ts", "serve"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: base,
    SIGNCRAFT_ENV: "test",
    OPERATOR_TOKEN,
    RATE_LIMIT_PER_KEY_PER_MINUTE: UNTHROTTLED,
    RATE_LIMIT_PER_IP_PER_MINUTE: UNTHROTTLED,
    ...database
  }, pin)
  cleanups.push(() => stopServer(server))
  await waitUntilAnswering(server, `${base}/healthz`, 200)
  const company = await operatorCall(base, "/companies", { name: "Bench Company" })
  const store = await operatorCall(base, "/stores", { company_id: company.id, name: "Bench Store" })
  const key = await operatorCall(base, `/stores/${store.id}/api-keys`, { mode: "test", scopes: ["store:read"] })
  const headers = { authorization: `Bearer ${String(key.key)}` }
  const check = await fetch(`${base}${PATH}`, { headers })
  if (check.status !== 200) throw new Error(`${name}: ${PATH} answered ${check.status}: ${await check.text()}`)
  await check.arrayBuffer()
  return { name, url: `${base}${PATH}`, headers, server }
}

const runPg = <A>(url: string, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(effect.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))))

// A database of its own on the server DATABASE_URL points at, dropped afterwards.
const createThrowawayDatabase = async (adminUrl: string): Promise<string> => {
  const name = `signcraft_bench_${process.pid}_${Date.now()}`
  const statement = (text: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(text)
    })
  await runPg(adminUrl, statement(`CREATE DATABASE "${name}"`))
  cleanups.push(() => runPg(adminUrl, statement(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(() => {}))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

const load = (target: Target, seconds: number) =>
  autocannon({ url: target.url, connections: CONNECTIONS, duration: seconds, headers: target.headers })

const measure = async (target: Target): Promise<Sample> => {
  await load(target, WARMUP_SECONDS)
  const cpuBefore = cpuMicros(target.server.child.pid)
  const result = await load(target, SECONDS)
  const cpu = cpuMicros(target.server.child.pid) - cpuBefore
  return {
    load: loadavg()[0] ?? 0,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerRequest: result.requests.total > 0 ? cpu / result.requests.total : 0,
    failures: result.errors + result.timeouts + result.non2xx
  }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const row = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join("  ")

const WIDTHS = [7, 20, 9, 8, 8, 7, 9, 8, 6]
const SUMMARY_WIDTHS = [7, 20, 9, 8, 8, 7, 9, 9, 13]
const HEADER = ["round", "server", "req/s", "p50 ms", "p99 ms", "ratio", "CPU µs/req", "failed", "load"]

const sampleRow = (round: string, name: string, sample: Sample, bare: number) =>
  row([
    round,
    name,
    sample.rps.toFixed(0),
    sample.p50.toFixed(1),
    sample.p99.toFixed(1),
    bare > 0 ? (sample.rps / bare).toFixed(2) : "-",
    sample.cpuUsPerRequest.toFixed(0),
    String(sample.failures),
    sample.load.toFixed(1)
  ], WIDTHS)

const main = async () => {
  const startedAt = Date.now()
  const pin = canPin()
  const dataDir = mkdtempSync(join(tmpdir(), "signcraft-bench-"))
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
  console.log(`stores-me: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per run, ${ROUNDS} rounds`)
  console.log(pin ? "pinning: servers on CPU 0, autocannon on CPU 1" : "pinning: off (needs taskset and 2 CPUs)")

  const targets: Array<Target> = []
  targets.push(await startBare(pin))
  targets.push(await startSigncraft("signcraft embedded", { DATA_DIR: dataDir }, pin))
  const adminUrl = process.env.DATABASE_URL
  if (adminUrl !== undefined && adminUrl !== "") {
    const url = await createThrowawayDatabase(adminUrl)
    targets.push(await startSigncraft("signcraft postgres", { DATABASE_URL: url }, pin))
  } else {
    console.log("postgres: skipped (DATABASE_URL is not set)")
  }
  if (pin) pinSelfToCpu1()

  const samples = new Map<string, Array<Sample>>(targets.map((target) => [target.name, []]))
  const ratios = new Map<string, Array<number>>(targets.map((target) => [target.name, []]))
  // The same comparison by CPU time per request, which other load on the machine
  // disturbs less than throughput does (bare's CPU µs/req ÷ the server's).
  const cpuRatios = new Map<string, Array<number>>(targets.map((target) => [target.name, []]))
  console.log(`\n${row(HEADER, WIDTHS)}`)
  for (let round = 1; round <= ROUNDS; round++) {
    let bare = 0
    let bareCpu = 0
    for (const target of targets) {
      const sample = await measure(target)
      if (bare === 0) {
        bare = sample.rps
        bareCpu = sample.cpuUsPerRequest
      }
      samples.get(target.name)?.push(sample)
      ratios.get(target.name)?.push(bare > 0 ? sample.rps / bare : 0)
      cpuRatios.get(target.name)?.push(sample.cpuUsPerRequest > 0 ? bareCpu / sample.cpuUsPerRequest : 0)
      console.log(sampleRow(String(round), target.name, sample, bare))
    }
  }

  console.log(`\nmedian over ${ROUNDS} rounds (ratio = median of the per-round ratios; target ≥ ${TARGET_RATIO})`)
  console.log(row(["", "server", "req/s", "p50 ms", "p99 ms", "ratio", "CPU ratio", "peak RSS", "verdict"], SUMMARY_WIDTHS))
  for (const target of targets) {
    const list = samples.get(target.name) ?? []
    const ratio = median(ratios.get(target.name) ?? [])
    const verdict = target === targets[0] ? "" : ratio >= TARGET_RATIO ? "PASS" : "BELOW TARGET"
    console.log(row([
      "median",
      target.name,
      median(list.map((s) => s.rps)).toFixed(0),
      median(list.map((s) => s.p50)).toFixed(1),
      median(list.map((s) => s.p99)).toFixed(1),
      ratio.toFixed(2),
      median(cpuRatios.get(target.name) ?? []).toFixed(2),
      `${peakRssMb(target.server.child.pid)} MB`,
      verdict
    ], SUMMARY_WIDTHS))
  }
  const loads = [...samples.values()].flat().map((sample) => sample.load)
  console.log(
    `\nload average (1 min) during the runs: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}` +
      ` on ${cpus().length} CPUs; above about 2 the machine is busy with other work and the figures are noisy`
  )
  const failed = [...samples.values()].flat().reduce((sum, sample) => sum + sample.failures, 0)
  if (failed > 0) console.log(`\nwarning: ${failed} requests failed or were not 2xx; the figures are suspect`)
  console.log(`\nstores-me: done in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`)
}

const cleanUp = async () => {
  // Servers first (they hold the database), then the database and the directory.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
}

process.once("SIGINT", () => {
  void cleanUp().finally(() => process.exit(130))
})

try {
  await main()
} catch (error) {
  console.error("stores-me failed:", error)
  process.exitCode = 1
} finally {
  await cleanUp()
}
