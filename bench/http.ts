/**
 * The HTTP benchmark of `npm run bench` (docs/performance.md), built so that its verdict cannot flatter:
 *
 * - The verdict: a case runs BENCH_REPEATS (3) sustained runs (BENCH_WARMUP_SECONDS (2) of
 *   warm-up, then BENCH_SECONDS (10) at BENCH_CONNECTIONS (50)), each between two sustained runs
 *   of the bare server (a) (bench/bare-fixed-server.mjs under plain node, the runtime's limit):
 *   A C A C A C A. A repeat's ratio is its req/s ÷ the mean of the (a) runs just before and after
 *   it, and a line passes only when the worst repeat reaches it (bench/verdict.ts).
 * - A diagnostic only: BENCH_SLICES (5; 0 skips them) short slices of the case, each between two
 *   (a) slices, printed beside the verdict; they say how steady the machine was, not whether a
 *   line is met.
 * - (b), the same-response server (bench/bare-server.mjs), and the generator check: a round of
 *   both before the first case and after the last. (a) is loaded from one autocannon thread and
 *   from two workers, and the generator that reaches the higher figure loads every (a) run after:
 *   a saturated generator can then only lower a case's ratio, never raise it.
 * - Cases on the reference server as built (`packages/server/dist/bin.js serve`, what
 *   `npm start` runs; built when stale), embedded database and, when DATABASE_URL is set, a
 *   throwaway PostgreSQL database: stores/me, pricing read (~6.4 KB document), the pricing read
 *   with METRICS_TOKEN set (within 5 % of the same case off, repeat by repeat), customiser list,
 *   order write (one product line, distinct Idempotency-Keys), storefront design (with a local
 *   integrator), and analytics-load: BENCH_ORDERS (1,000,000) orders imported through the
 *   operator API, then the analytics summary at BENCH_CONNECTIONS; the server's peak RSS over
 *   its whole run is held to 400 MB.
 * - Start-up timings of `node packages/server/bin/signcraft.js serve` (bench/startup.ts).
 *
 * Pinning: when `taskset` and two CPUs exist, every server measured, (a), (b) and signcraft
 * alike, has its main thread on CPU 0 and its other threads on either CPU; autocannon runs on
 * CPU 1. Before each run the benchmark waits for a quiet machine, at most
 * BENCH_QUIET_TIMEOUT_SECONDS (60). BENCH_CASES (comma list; all by default), BENCH_PROFILE_DIR
 * (the signcraft servers run with --cpu-prof and write their profiles there). With
 * BENCH_SUMMARY_FILE set, the markdown summary is appended there too (bench/run.ts).
 * Loopback only; every run is bounded. Exits non-zero only when something crashes; a figure
 * below its line is reported, not fatal.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { type CaseRequest, type LoadShape, type Measurement, measure } from "./load.js"
import { measurePaired, type Paired } from "./paired.js"
import {
  BUILT_SERVER,
  canPin,
  ensureBuilt,
  freePort,
  pinMainThreadToCpu0,
  pinSelfToCpu1,
  type ServerChild,
  spawnServer,
  stopServer,
  waitForQuietMachine,
  waitUntilAnswering,
  watchRss
} from "./processes.js"
import { checkOnce, designBody, importOrders, orderBody, seed, type Seeded } from "./seed.js"
import { serverNodeFlags } from "../packages/server/bin/node-flags.js"
import { appendSummary } from "./summary.js"
import { STARTUP_TARGETS, type StartupTimings, timeStartups } from "./startup.js"
import { median, overheadRatios, ratio, reaches, type Spread, spreadOf, verdictOf } from "./verdict.js"

const SECONDS = Number(process.env.BENCH_SECONDS ?? "10")
const WARMUP_SECONDS = Math.min(SECONDS, Number(process.env.BENCH_WARMUP_SECONDS ?? "2"))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? "50")
const REPEATS = Math.max(1, Math.floor(Number(process.env.BENCH_REPEATS ?? "3")))
// The diagnostic: BENCH_SLICES slices of BENCH_SECONDS together, each between two slices of (a).
const SLICES = Math.max(0, Math.floor(Number(process.env.BENCH_SLICES ?? "5")))
const SLICE_SECONDS = Math.max(1, Math.round(SECONDS / Math.max(1, SLICES)))
const QUIET_TIMEOUT_MS = 1000 * Math.max(0, Number(process.env.BENCH_QUIET_TIMEOUT_SECONDS ?? "60"))
const ORDERS = Math.max(0, Math.floor(Number(process.env.BENCH_ORDERS ?? "1000000")))
// The memory line holds for a run that imported this many orders.
const RSS_ORDERS = 1_000_000
const RSS_LINE_MB = 400
// Metrics on: each repeat's ratio within 5 % of the same repeat's with metrics off.
const METRICS_LINE = 0.95
const SELECTED = (process.env.BENCH_CASES ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "")
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR === undefined || process.env.BENCH_PROFILE_DIR === ""
  ? undefined
  : process.env.BENCH_PROFILE_DIR
const OPERATOR_TOKEN = `bench_${Date.now()}_${Math.random().toString(36).slice(2)}`
// High enough that the quotas never answer 429 during a run.
const UNTHROTTLED = "1000000000"
// autocannon worker threads of the second baseline run (the generator-headroom check).
const EXTRA_WORKERS = 2

type Leg = "embedded" | "postgres"

/** One HTTP case: its name for BENCH_CASES, its row label, its request and its target ratio to (a). */
interface HttpCase {
  readonly name: string
  readonly label: string
  readonly status: number
  readonly request: (base: string, seeded: Seeded) => CaseRequest
  readonly target?: (leg: Leg) => number
  /** Settings of its own: the case runs on a server of its own started with them. */
  readonly serverEnv?: Readonly<Record<string, string>>
  /** Work before the load (the analytics case's import); answers how many orders it imported. */
  readonly prepare?: (base: string, seeded: Seeded) => Promise<number>
}

const json = (body: unknown) => JSON.stringify(body)

const METRICS_CASE = "pricing-read-metrics"

const pricingRead = (base: string, seeded: Seeded): CaseRequest => ({
  url: `${base}/api/v3/customisers/${seeded.customiserId}/pricing`,
  method: "GET",
  headers: { authorization: `Bearer ${seeded.key}` }
})

const CASES: ReadonlyArray<HttpCase> = [
  {
    name: "stores-me",
    label: "`GET /api/v3/stores/me`",
    status: 200,
    request: (base, seeded) => ({ url: `${base}/api/v3/stores/me`, method: "GET", headers: { authorization: `Bearer ${seeded.key}` } }),
    target: () => 0.5
  },
  {
    name: "pricing-read",
    label: "`GET /api/v3/customisers/{id}/pricing`",
    status: 200,
    request: pricingRead,
    target: () => 0.35
  },
  {
    // The hottest read with every request counted for /metrics: within 5 % of pricing-read's ratio.
    name: METRICS_CASE,
    label: "`GET /api/v3/customisers/{id}/pricing`, `METRICS_TOKEN` set",
    status: 200,
    request: pricingRead,
    target: () => 0.35,
    serverEnv: { METRICS_TOKEN: `bench_metrics_${Date.now()}` }
  },
  {
    name: "customiser-list",
    label: "`GET /api/v3/customisers`",
    status: 200,
    request: (base, seeded) => ({ url: `${base}/api/v3/customisers`, method: "GET", headers: { authorization: `Bearer ${seeded.key}` } })
  },
  {
    name: "order-write",
    label: "`POST /api/v3/orders` (distinct keys)",
    status: 201,
    request: (base, seeded) => ({
      url: `${base}/api/v3/orders`,
      method: "POST",
      headers: { authorization: `Bearer ${seeded.key}`, "content-type": "application/json", "idempotency-key": "bench-[<id>]" },
      body: json(orderBody(seeded.integrationId, seeded.productId)),
      unique: true
    }),
    target: (leg) => (leg === "embedded" ? 0.03 : 0.05)
  },
  {
    name: "storefront-design",
    label: "`POST /storefront/v1/customisers/{id}/designs`",
    status: 201,
    request: (base, seeded) => ({
      url: `${base}/storefront/v1/customisers/${seeded.customiserId}/designs`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: json(designBody(seeded.integrationId))
    })
  },
  {
    // Last of the shared server's cases: its import grows the database the others would read.
    name: "analytics-load",
    label: "`GET /api/v3/analytics/summary?period=365d` over the imported orders",
    status: 200,
    request: (base, seeded) => ({
      url: `${base}/api/v3/analytics/summary?period=365d`,
      method: "GET",
      headers: { authorization: `Bearer ${seeded.key}` }
    }),
    prepare: async (base, seeded) => {
      console.log(`  importing ${ORDERS.toLocaleString("en")} orders through the operator API`)
      return importOrders(base, OPERATOR_TOKEN, seeded.storeId, ORDERS)
    }
  }
]

const selected = (name: string) => SELECTED.length === 0 || SELECTED.includes(name)

interface CaseResult {
  readonly leg: Leg
  readonly name: string
  readonly label: string
  /** The sustained repeats, and (a)'s runs between and around them: what the verdict rests on. */
  readonly sustained?: Paired
  /** The short slices, and (a)'s between and around them: a diagnostic only. */
  readonly slices?: Paired
  readonly error?: string
  readonly target?: number
}

interface LegResult {
  readonly leg: Leg
  readonly peakRssMb: number
  /** Orders the analytics case imported on this leg; undefined when it did not run. */
  readonly importedOrders?: number
}

const cleanups: Array<() => Promise<void>> = []

const track = (server: ServerChild): ServerChild => {
  cleanups.push(() => stopServer(server))
  return server
}

// `unauthenticatedStatus`: what the server answers the readiness poll, which sends no token.
const startBaseline = async (pin: boolean, args: ReadonlyArray<string>, unauthenticatedStatus: number) => {
  const port = await freePort()
  const server = track(spawnServer(args, { PORT: String(port) }))
  const url = `http://127.0.0.1:${port}/api/v3/stores/me`
  // (b) checks a bearer token; (a) answers 200 to anything.
  const headers = { authorization: "Bearer bench" }
  await waitUntilAnswering(server, url, unauthenticatedStatus)
  if (pin) pinMainThreadToCpu0(server.child.pid)
  return { server, request: { url, method: "GET", headers } satisfies CaseRequest }
}

const startReceiver = async () => {
  const port = await freePort()
  // Not pinned to the server's CPU: the integrator is another party, not the service's cost.
  const server = track(spawnServer(["bench/integrator-receiver.mjs"], { PORT: String(port) }))
  await waitUntilAnswering(server, `http://127.0.0.1:${port}/`, 200)
  return `http://127.0.0.1:${port}/products`
}

const startSigncraft = async (database: Record<string, string>, pin: boolean, serverEnv: Readonly<Record<string, string>> = {}) => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // BENCH_PROFILE_DIR: each signcraft server writes a V8 CPU profile there when it stops.
  const profile = PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]
  // What `npm start` runs once built, with its heap flags (packages/server/bin/signcraft.js).
  const server = spawnServer([...profile, ...serverNodeFlags(), BUILT_SERVER, "serve"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: base,
    SIGNCRAFT_ENV: "test",
    OPERATOR_TOKEN,
    RATE_LIMIT_PER_KEY_PER_MINUTE: UNTHROTTLED,
    RATE_LIMIT_PER_IP_PER_MINUTE: UNTHROTTLED,
    STOREFRONT_LIMIT_PER_STORE_PER_MINUTE: UNTHROTTLED,
    ...serverEnv,
    ...database
  })
  await waitUntilAnswering(server, `${base}/healthz`, 200)
  if (pin) pinMainThreadToCpu0(server.child.pid)
  return { server, base }
}

const runPg = <A>(url: string, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(effect.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))))

const statement = (text: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(text)
  })

// A database of its own on the server DATABASE_URL points at, dropped afterwards.
const createThrowawayDatabase = async (adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `signcraft_bench_${process.pid}_${Date.now()}`
  await runPg(adminUrl, statement(`CREATE DATABASE "${name}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => runPg(adminUrl, statement(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)) }
}

// At most BENCH_QUIET_TIMEOUT_SECONDS: a machine shared with other work may never get quiet.
const waitQuiet = () => waitForQuietMachine(0.2, 1000, QUIET_TIMEOUT_MS)

const shape = (seconds: number, workers = 0): LoadShape => ({ seconds, connections: CONNECTIONS, workers })

const warmUp = async (pid: number | undefined, request: CaseRequest, workers = 0) => {
  if (WARMUP_SECONDS > 0) await measure(pid, request, shape(WARMUP_SECONDS, workers))
}

const warmAndMeasure = async (pid: number | undefined, request: CaseRequest, workers = 0) => {
  await warmUp(pid, request, workers)
  return measure(pid, request, shape(SECONDS, workers))
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-")

// Each slice's req/s, and its ratio to the (a) slices around it.
const slicesNote = (paired: Paired) =>
  paired.slices.map((m, index) => `${fixed(m.rps, 0)} req/s (${fixed(paired.ratios[index] ?? Number.NaN, 3)})`).join(", ") +
  `; (a) slices ${paired.bare.map((m) => fixed(m.rps, 0)).join(", ")} req/s`

// How long a measurement waited for a quiet machine (see waitForQuietMachine).
const quietNote = (settled: { readonly waitedMs: number; readonly quiet: boolean }) =>
  `machine ${settled.quiet ? "quiet" : "STILL BUSY"} after ${fixed(settled.waitedMs / 1000, 1)} s`

const measurementLine = (label: string, m: Measurement) =>
  `  ${label.padEnd(48)} ${fixed(m.rps, 0).padStart(8)} req/s  p50 ${fixed(m.p50, 1).padStart(6)} ms  p99 ${
    fixed(m.p99, 1).padStart(6)
  } ms  ${fixed(m.cpuUsPerRequest, 0).padStart(6)} µs CPU/req  server ${fixed(m.serverCores, 2)} cores  generator ${
    fixed(m.generatorCores, 2)
  } cores  failed ${m.failures}  load ${fixed(m.load, 1)}`

/** How a leg loads (a): one sustained run, or one short slice, between the case's. */
interface BareRuns {
  readonly sustained: () => Promise<Measurement>
  readonly slice: () => Promise<Measurement>
}

// One leg: a fresh server on `database`, seeded, every selected case in turn, and its peak RSS.
// A case with settings of its own runs on a server of its own, started after the shared one has
// stopped.
const runLeg = async (leg: Leg, database: Record<string, string>, pin: boolean, receiverUrl: string, bareRuns: BareRuns) => {
  const results: Array<CaseResult> = []
  const chosen = CASES.filter((c) => selected(c.name))
  const shared = chosen.filter((c) => c.serverEnv === undefined)
  const groups: Array<{ readonly env: Readonly<Record<string, string>>; readonly cases: ReadonlyArray<HttpCase> }> = [
    ...(shared.length > 0 || chosen.length === 0 ? [{ env: {}, cases: shared }] : []),
    ...chosen.filter((c) => c.serverEnv !== undefined).map((c) => ({ env: c.serverEnv ?? {}, cases: [c] }))
  ]
  let peakRssMb = 0
  let importedOrders: number | undefined
  for (const group of groups) {
    const { server, base } = await startSigncraft(database, pin, group.env)
    const pid = server.child.pid
    const rss = watchRss(pid)
    try {
      const seeded = await seed(base, OPERATOR_TOKEN, receiverUrl)
      console.log(`\n[${leg}] seeded: pricing document ${seeded.pricingBytes} bytes as read`)
      for (const httpCase of group.cases) {
        const request = httpCase.request(base, seeded)
        const target = httpCase.target?.(leg)
        try {
          await checkOnce(httpCase.name, request, httpCase.status)
          if (httpCase.prepare !== undefined) importedOrders = (importedOrders ?? 0) + (await httpCase.prepare(base, seeded))
          // Like every (a) run, a case's runs start on a quiet machine (see waitForQuietMachine).
          const settled = await waitQuiet()
          const sustained = await measurePaired(REPEATS, bareRuns.sustained, async () => {
            await waitQuiet()
            return warmAndMeasure(pid, request)
          })
          console.log(measurementLine(`${leg} ${httpCase.name}`, sustained.measurement), quietNote(settled))
          console.log(`  ${REPEATS} sustained repeats: ${slicesNote(sustained)}`)
          const slices = SLICES === 0
            ? undefined
            : await measurePaired(SLICES, bareRuns.slice, () => measure(pid, request, shape(SLICE_SECONDS)))
          if (slices !== undefined) console.log(`  ${SLICES} diagnostic slices: ${slicesNote(slices)}`)
          results.push({
            leg,
            name: httpCase.name,
            label: httpCase.label,
            sustained,
            ...(slices === undefined ? {} : { slices }),
            ...(target === undefined ? {} : { target })
          })
        } catch (error) {
          // One case failing must not hide the others; the run still exits non-zero.
          console.error(`  ${leg} ${httpCase.name} FAILED: ${error instanceof Error ? error.message : String(error)}`)
          results.push({ leg, name: httpCase.name, label: httpCase.label, error: String(error), ...(target === undefined ? {} : { target }) })
        }
      }
    } finally {
      rss.stop()
      peakRssMb = Math.max(peakRssMb, rss.peakMb())
      await stopServer(server)
    }
  }
  return { results, leg: { leg, peakRssMb, ...(importedOrders === undefined ? {} : { importedOrders }) } satisfies LegResult }
}

/** A round of (a): the higher of its two generator shapes' figures, and which shape it was. */
interface Baseline {
  readonly measurement: Measurement
  readonly workers: number
}

// (a)'s figure of a round is the higher of the two: a saturated generator can then only lower a
// case's figure, never (a)'s, so it cannot raise a ratio.
const ceilingOf = (single: Measurement, multi: Measurement): Baseline =>
  multi.rps > single.rps ? { measurement: multi, workers: EXTRA_WORKERS } : { measurement: single, workers: 1 }

interface Baselines {
  readonly bare: ReadonlyArray<Baseline>
  readonly same: ReadonlyArray<Measurement>
}

const mean = (values: ReadonlyArray<number>) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)

const spreadCells = (spread: Spread) => `${fixed(spread.worst, 3)} / ${fixed(spread.median, 3)} / ${fixed(spread.best, 3)}`

// The verdict table's row of one case: its sustained repeats against the (a) runs around them.
const caseRow = (result: CaseResult): string => {
  const line = result.target === undefined ? "" : `≥ ${result.target}`
  if (result.sustained === undefined) return `| ${result.leg} | ${result.label} | FAILED | | | | | ${line} | FAILED | |`
  const { measurement, bare, ratios } = result.sustained
  const spread = spreadOf(ratios)
  const verdict = result.target === undefined ? "" : verdictOf(spread, result.target)
  const slices = result.slices === undefined ? "" : fixed(median(result.slices.ratios), 3)
  return `| ${result.leg} | ${result.label} | ${fixed(measurement.rps, 0)} | ${fixed(measurement.p99, 1)} | ${
    fixed(measurement.cpuUsPerRequest, 0)
  } | ${fixed(mean(bare.map((m) => m.rps)), 0)} | ${spreadCells(spread)} | ${line} | ${verdict} | ${slices} |`
}

// Metrics on against off on one leg, repeat by repeat; undefined unless both ran.
const metricsRow = (leg: Leg, cases: ReadonlyArray<CaseResult>): string | undefined => {
  const on = cases.find((c) => c.leg === leg && c.name === METRICS_CASE)?.sustained
  const off = cases.find((c) => c.leg === leg && c.name === "pricing-read")?.sustained
  if (on === undefined || off === undefined) return undefined
  const spread = spreadOf(overheadRatios(on.ratios, off.ratios))
  return `| ${leg} | pricing read, metrics on ÷ off (each repeat's ratio to (a)) | | | | | ${spreadCells(spread)} | ≥ ${METRICS_LINE} | ${
    verdictOf(spread, METRICS_LINE)
  } | |`
}

const rssRow = (leg: LegResult): string => {
  const imported = leg.importedOrders ?? 0
  const run = leg.importedOrders === undefined
    ? "analytics-load not run"
    : `${imported.toLocaleString("en")} orders imported, analytics at ${CONNECTIONS} connections`
  // The line is for the full import; a smaller one (a smoke run) is reported without a verdict.
  const verdict = imported < RSS_ORDERS ? "n/a (not the full import)" : reaches(RSS_LINE_MB, leg.peakRssMb) ? "PASS" : "BELOW"
  return `| ${leg.leg} | ${leg.peakRssMb} MB | ${run} | ≤ ${RSS_LINE_MB} MB | ${verdict} |`
}

const summaryMarkdown = (
  baselines: Baselines,
  cases: ReadonlyArray<CaseResult>,
  legs: ReadonlyArray<LegResult>,
  startup: StartupTimings | undefined,
  generatorVerdict: string,
  pinned: boolean
): string => {
  const lines = [
    `- ${cpus().length} CPUs, ${
      pinned ? "pinned alike: every server's main thread ((a), (b) and signcraft) on CPU 0, autocannon on CPU 1" : "nothing pinned"
    }; loopback, ${CONNECTIONS} connections.`,
    `- Verdict: ${REPEATS} sustained repeats per case (${WARMUP_SECONDS} s warm-up, then ${SECONDS} s), each between two sustained runs of (a), bare node:http answering fixed JSON (A C A C … A). A repeat's ratio = its req/s ÷ the mean req/s of the (a) runs just before and after it; ratios are given worst / median / best, and a line passes only when the worst reaches it.`,
    `- req/s and CPU µs/req are the repeats' together, p99 the worst repeat's; (a) req/s is the mean of the case's (a) runs. ${
      SLICES === 0
        ? "No diagnostic slices."
        : `Slices (diagnostic, not the verdict): the median ratio of ${SLICES} slices of ${SLICE_SECONDS} s, each between two (a) slices.`
    }`,
    `- Load generator: ${generatorVerdict}; at most ${
      fixed(Math.max(0, ...cases.flatMap((c) => (c.sustained === undefined ? [] : [c.sustained.measurement.generatorCores]))), 2)
    } cores during the signcraft cases.`,
    "",
    "| database | case | req/s | p99 ms | CPU µs/req | (a) req/s | ratio to (a) worst / median / best | line | verdict | slices (diagnostic) |",
    "|---|---|---:|---:|---:|---:|---|---|---|---:|"
  ]
  for (const result of cases) lines.push(caseRow(result))
  for (const leg of legs) {
    const row = metricsRow(leg.leg, cases)
    if (row !== undefined) lines.push(row)
  }
  lines.push("", "| database | server peak RSS | run | line | verdict |", "|---|---:|---|---|---|")
  for (const leg of legs) lines.push(rssRow(leg))
  lines.push("", "| baseline round | req/s | p99 ms | CPU µs/req | generator |", "|---|---:|---:|---:|---|")
  for (const [round, b] of baselines.bare.entries()) {
    const m = b.measurement
    lines.push(`| (a) bare node:http, round ${round + 1} | ${fixed(m.rps, 0)} | ${fixed(m.p99, 1)} | ${fixed(m.cpuUsPerRequest, 0)} | ${
      b.workers === 1 ? "1 autocannon thread" : `${b.workers} autocannon workers`
    } |`)
  }
  for (const [round, m] of baselines.same.entries()) {
    lines.push(`| (b) same response, plain node, round ${round + 1} | ${fixed(m.rps, 0)} | ${fixed(m.p99, 1)} | ${fixed(m.cpuUsPerRequest, 0)} | 1 autocannon thread |`)
  }
  if (startup !== undefined) {
    const verdict = (seconds: number, target: number) => (seconds < target ? "PASS" : "BELOW")
    lines.push(
      "",
      "| start-up (`node packages/server/bin/signcraft.js serve` to `/healthz` 200) | seconds | target | verdict |",
      "|---|---:|---:|---|",
      `| fresh data directory | ${fixed(startup.fresh, 2)} | < ${STARTUP_TARGETS.fresh} | ${verdict(startup.fresh, STARTUP_TARGETS.fresh)} |`,
      `| second start, same directory | ${fixed(startup.second, 2)} | < ${STARTUP_TARGETS.second} | ${
        verdict(startup.second, STARTUP_TARGETS.second)
      } |`
    )
  }
  return lines.join("\n")
}

// Prints why the figures are the server's, not autocannon's: (a)'s CPU per wall second is about
// one core, and the generator's headroom, with one thread and with more. Returns the verdict for
// the summary. (a) takes the higher of the two figures (ceilingOf), so the verdict only says how
// far one thread would have understated it.
const generatorEvidence = (single: Measurement, multi: Measurement, pinned: boolean): string => {
  const cpuBound = Math.max(single.serverCores, multi.serverCores) >= 0.85
  const headroom = single.generatorCores < 0.85
  const change = ratio(multi.rps, single.rps)
  console.log("\nload generator check (bare server (a)):")
  console.log(
    `  1 thread:  server ${fixed(single.serverCores, 2)} cores, generator ${fixed(single.generatorCores, 2)} cores, ${
      fixed(single.rps, 0)
    } req/s`
  )
  console.log(
    `  ${EXTRA_WORKERS} workers${pinned ? " (sharing CPU 1)" : ""}: server ${fixed(multi.serverCores, 2)} cores, generator ${
      fixed(multi.generatorCores, 2)
    } cores, ${fixed(multi.rps, 0)} req/s (${fixed(change, 2)}× the 1-thread figure)`
  )
  const verdict = [
    `server (a) ${cpuBound ? "CPU-bound" : "NOT CPU-bound (busy machine?)"} at ${
      fixed(Math.max(single.serverCores, multi.serverCores), 2)
    } cores`,
    `one autocannon thread ${headroom ? "has headroom" : "is near saturation"} at ${fixed(single.generatorCores, 2)} cores`,
    `${EXTRA_WORKERS} workers reach ${
      Math.abs(change - 1) <= 0.1 ? "the same figure (within 10 %)" : change > 1 ? "a higher figure" : "a lower figure"
    }: ${fixed(change, 2)}×`,
    "(a) is the higher figure of each round, so the generator cannot raise a ratio"
  ].join("; ")
  console.log(`  verdict: ${verdict}`)
  return verdict
}

const main = async () => {
  const startedAt = Date.now()
  ensureBuilt()
  const pin = canPin()
  console.log(
    `http bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per run; cases: ${
      SELECTED.length === 0 ? "all" : SELECTED.join(", ")
    }; ${REPEATS} repeats, ${SLICES} diagnostic slices`
  )
  console.log(
    pin
      ? "pinning: servers' main threads on CPU 0 (their other threads on either), autocannon on CPU 1"
      : "pinning: off (needs taskset and 2 CPUs)"
  )

  const bareA = await startBaseline(pin, ["bench/bare-fixed-server.mjs"], 200)
  const sameB = await startBaseline(pin, ["bench/bare-server.mjs"], 401)
  const receiverUrl = await startReceiver()
  if (pin) pinSelfToCpu1()

  const bare: Array<Baseline> = []
  const same: Array<Measurement> = []
  let generatorVerdict = ""
  // A round of both baselines, and the generator check: before the first case and after the last.
  const baselineRound = async (when: string): Promise<void> => {
    const settled = await waitQuiet()
    console.log(`\nbaselines, ${when} (${quietNote(settled)}):`)
    const single = await warmAndMeasure(bareA.server.child.pid, bareA.request)
    console.log(measurementLine("(a) bare node:http, fixed JSON, plain node", single))
    const multi = await warmAndMeasure(bareA.server.child.pid, bareA.request, EXTRA_WORKERS)
    console.log(measurementLine(`(a) bare node:http, ${EXTRA_WORKERS} autocannon workers`, multi))
    if (generatorVerdict === "") generatorVerdict = generatorEvidence(single, multi, pin)
    bare.push(ceilingOf(single, multi))
    const b = await warmAndMeasure(sameB.server.child.pid, sameB.request)
    console.log(measurementLine("(b) same response, plain node", b))
    same.push(b)
  }

  await baselineRound("before the first case")

  // (a) between a case's runs, from the generator that won the latest round, on a quiet machine:
  // work a case run leaves behind would slow (a) and so raise the case's ratio.
  const bareWorkers = () => (bare.at(-1)?.workers === EXTRA_WORKERS ? EXTRA_WORKERS : 0)
  const bareRuns: BareRuns = {
    sustained: async () => {
      await waitQuiet()
      return warmAndMeasure(bareA.server.child.pid, bareA.request, bareWorkers())
    },
    slice: async () => {
      await waitQuiet()
      return measure(bareA.server.child.pid, bareA.request, shape(SLICE_SECONDS, bareWorkers()))
    }
  }

  const cases: Array<CaseResult> = []
  const legs: Array<LegResult> = []
  const anyHttpCase = CASES.some((c) => selected(c.name))
  if (anyHttpCase) {
    const dataDir = mkdtempSync(join(tmpdir(), "signcraft-bench-"))
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const embedded = await runLeg("embedded", { DATA_DIR: dataDir, DATABASE_URL: "" }, pin, receiverUrl, bareRuns)
    cases.push(...embedded.results)
    legs.push(embedded.leg)
    const adminUrl = process.env.DATABASE_URL
    if (adminUrl !== undefined && adminUrl !== "") {
      const database = await createThrowawayDatabase(adminUrl)
      try {
        const postgres = await runLeg("postgres", { DATABASE_URL: database.url }, pin, receiverUrl, bareRuns)
        cases.push(...postgres.results)
        legs.push(postgres.leg)
      } finally {
        await database.drop()
      }
    } else {
      console.log("\npostgres leg: skipped (set DATABASE_URL, or run `npm run bench -- --postgres`)")
    }
  }

  if (anyHttpCase) await baselineRound("after the last case")

  let startup: StartupTimings | undefined
  if (selected("startup")) {
    console.log("\nstart-up: timing `node packages/server/bin/signcraft.js serve` to /healthz 200 (fresh, then second start)")
    startup = await timeStartups()
    console.log(`  fresh ${fixed(startup.fresh, 2)} s, second ${fixed(startup.second, 2)} s`)
  }

  const summary = summaryMarkdown({ bare, same }, cases, legs, startup, generatorVerdict, pin)
  console.log(`\n${summary}`)
  appendSummary(summary)
  const failed = [
    ...bare.map((b) => b.measurement),
    ...same,
    ...cases.flatMap((c) =>
      [c.sustained, c.slices].flatMap((paired) => (paired === undefined ? [] : [paired.measurement, ...paired.bare]))
    )
  ]
    .reduce((sum, m) => sum + m.failures, 0)
  if (failed > 0) console.log(`\nwarning: ${failed} requests failed or were not 2xx; the figures are suspect`)
  console.log(`\nhttp bench: done in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`)
  if (cases.some((c) => c.error !== undefined)) process.exitCode = 1
}

const cleanUp = async () => {
  // Servers first (they hold the database), then the directories.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
}

process.once("SIGINT", () => {
  void cleanUp().finally(() => process.exit(130))
})

try {
  await main()
} catch (error) {
  console.error("http bench failed:", error)
  process.exitCode = 1
} finally {
  await cleanUp()
}
