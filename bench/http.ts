/**
 * The HTTP benchmark of `npm run bench` (docs/performance.md), built so it cannot flatter:
 *
 * - Two baselines, measured in the same run before the first case and again after every case:
 *   (a) a bare node:http server answering a fixed small JSON body under plain node
 *   (bench/bare-fixed-server.mjs, the runtime's limit) and (b) the same-response server, also
 *   under plain node (bench/bare-server.mjs).
 * - A case runs in slices, each between two slices of (a) (bench/paired.ts): the machine's speed
 *   changes within half a minute, and a case is compared with the runtime as fast as it was then.
 *   Its ratio to (a) is the median of its slices' ratios; its ratio to (b) is to the rounds
 *   around it.
 * - A generator that cannot flatter: each round loads (a) from this thread and from two worker
 *   threads and takes the higher figure, and prints the server's and the generator's CPU time
 *   per wall second for both.
 * - Cases on the reference server as built (`packages/server/dist/bin.js serve`, what
 *   `npm start` runs once `npm run build` has built the source; the benchmark builds it when
 *   stale), embedded database and, when DATABASE_URL is set, a throwaway PostgreSQL database:
 *   stores/me, pricing read (~6.4 KB document), customiser list, order write (distinct
 *   Idempotency-Keys), storefront design (with a local integrator).
 *   Each: req/s, p50/p99, the server's CPU µs per request, ratios; peak RSS per server.
 * - Start-up timings of `node packages/server/bin/signcraft.js serve` (bench/startup.ts).
 *
 * When `taskset` and two CPUs exist, each server's main thread (its JavaScript) runs on CPU 0 and
 * autocannon on CPU 1; a server's other threads (V8's collector helpers) may use either CPU, as
 * PostgreSQL's own processes do on the PostgreSQL leg.
 * Loopback only; every run is bounded. BENCH_SECONDS (10) per run (a case's slices share it),
 * BENCH_WARMUP_SECONDS (2, at most BENCH_SECONDS), BENCH_SLICES (5), BENCH_CONNECTIONS (50),
 * BENCH_CASES (comma list; all by default),
 * BENCH_PROFILE_DIR (the signcraft servers run with --cpu-prof and write their profiles there).
 * With BENCH_SUMMARY_FILE set, the markdown summary is appended there too (bench/run.ts).
 * Exits non-zero only when something crashes; a figure below target is reported, not fatal.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { type CaseRequest, type LoadShape, type Measurement, measure } from "./load.js"
import { median, measurePaired, type Paired, ratio } from "./paired.js"
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
import { checkOnce, designBody, orderBody, seed, type Seeded } from "./seed.js"
import { serverNodeFlags } from "../packages/server/bin/node-flags.js"
import { appendSummary } from "./summary.js"
import { STARTUP_TARGETS, type StartupTimings, timeStartups } from "./startup.js"

const SECONDS = Number(process.env.BENCH_SECONDS ?? "10")
const WARMUP_SECONDS = Math.min(SECONDS, Number(process.env.BENCH_WARMUP_SECONDS ?? "2"))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? "50")
// A case runs in BENCH_SLICES slices of BENCH_SECONDS together, each between two slices of (a).
const SLICES = Math.max(1, Math.floor(Number(process.env.BENCH_SLICES ?? "5")))
const SLICE_SECONDS = Math.max(1, Math.round(SECONDS / SLICES))
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
}

const json = (body: unknown) => JSON.stringify(body)

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
    name: "pricing-read-metrics",
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
  }
]

const selected = (name: string) => SELECTED.length === 0 || SELECTED.includes(name)

interface CaseResult {
  readonly leg: Leg
  readonly label: string
  /** The case's slices, and (a)'s between and around them. */
  readonly paired?: Paired
  /** The baseline round just before the case; the one after it follows. */
  readonly round?: number
  readonly error?: string
  readonly target?: number
}

interface LegResult {
  readonly leg: Leg
  readonly peakRssMb: number
  readonly note?: string
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

// One leg: a fresh server on `database`, seeded, every selected case in turn, each followed by a
// baseline round (`baselineRound`, which answers the new round's index), and its peak RSS. A case
// with settings of its own runs on a server of its own, started after the shared one has stopped.
const runLeg = async (
  leg: Leg,
  database: Record<string, string>,
  pin: boolean,
  receiverUrl: string,
  baselineRound: (when: string) => Promise<number>,
  bareSlice: () => Promise<Measurement>
) => {
  const results: Array<CaseResult> = []
  const chosen = CASES.filter((c) => selected(c.name))
  const shared = chosen.filter((c) => c.serverEnv === undefined)
  const groups: Array<{ readonly env: Readonly<Record<string, string>>; readonly cases: ReadonlyArray<HttpCase> }> = [
    ...(shared.length > 0 || chosen.length === 0 ? [{ env: {}, cases: shared }] : []),
    ...chosen.filter((c) => c.serverEnv !== undefined).map((c) => ({ env: c.serverEnv ?? {}, cases: [c] }))
  ]
  let peakRssMb = 0
  for (const group of groups) {
    const { server, base } = await startSigncraft(database, pin, group.env)
    const rss = watchRss(server.child.pid)
    try {
      const seeded = await seed(base, OPERATOR_TOKEN, receiverUrl)
      console.log(`\n[${leg}] seeded: pricing document ${seeded.pricingBytes} bytes as read`)
      for (const httpCase of group.cases) {
        const request = httpCase.request(base, seeded)
        const target = httpCase.target?.(leg)
        try {
          await checkOnce(httpCase.name, request, httpCase.status)
          // Like every baseline round, a case starts on a quiet machine (see waitForQuietMachine).
          const settled = await waitForQuietMachine()
          await warmUp(server.child.pid, request)
          const paired = await measurePaired(SLICES, bareSlice, () => measure(server.child.pid, request, shape(SLICE_SECONDS)))
          console.log(measurementLine(`${leg} ${httpCase.name}`, paired.measurement), quietNote(settled))
          console.log(`  ${SLICES} slices: ${slicesNote(paired)}`)
          const after = await baselineRound(`after ${leg} ${httpCase.name}`)
          results.push({ leg, label: httpCase.label, paired, round: after - 1, ...(target === undefined ? {} : { target }) })
        } catch (error) {
          // One case failing must not hide the others; the run still exits non-zero.
          console.error(`  ${leg} ${httpCase.name} FAILED: ${error instanceof Error ? error.message : String(error)}`)
          results.push({ leg, label: httpCase.label, error: String(error), ...(target === undefined ? {} : { target }) })
        }
      }
    } finally {
      rss.stop()
      peakRssMb = Math.max(peakRssMb, rss.peakMb())
      await stopServer(server)
    }
  }
  return { results, leg: { leg, peakRssMb } satisfies LegResult }
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

// What a case is compared with: the baselines' mean over the rounds just before and after it.
interface Reference {
  readonly bare: number
  readonly bareCpu: number
  readonly same: number
}

const referenceOf = (baselines: Baselines, rounds: ReadonlyArray<number>): Reference => {
  const bare = rounds.flatMap((round) => baselines.bare[round] ?? [])
  const same = rounds.flatMap((round) => baselines.same[round] ?? [])
  return {
    bare: mean(bare.map((b) => b.measurement.rps)),
    bareCpu: mean(bare.map((b) => b.measurement.cpuUsPerRequest)),
    same: mean(same.map((m) => m.rps))
  }
}

const summaryMarkdown = (
  baselines: Baselines,
  cases: ReadonlyArray<CaseResult>,
  legs: ReadonlyArray<LegResult>,
  startup: StartupTimings | undefined,
  generatorVerdict: string
): string => {
  const everyRound = baselines.bare.map((_, round) => round)
  const lines = [
    `- HTTP: ${CONNECTIONS} connections, loopback, ${cpus().length} CPUs. A case: ${WARMUP_SECONDS} s warm-up, then ${SLICES} slices of ${SLICE_SECONDS} s, each between two ${SLICE_SECONDS} s slices of (a) (A C A C … C A).`,
    "- Ratio to (a) = the median of the case's slices, each slice's req/s ÷ the mean of the (a) slices just before and after it: this VM's speed changes within half a minute, so a case is compared with (a) measured seconds away. CPU ratio to (a) = likewise, (a)'s CPU µs per request ÷ the slice's: the same comparison by cost.",
    `- (a) = bare node:http answering fixed JSON under plain node; (b) = the same-response server under plain node. Full rounds of both (${SECONDS} s each after ${WARMUP_SECONDS} s warm-up) run before the first case and after every case; a case's ratio to (b) is to the mean of the rounds around it. Each round loads (a) from one autocannon thread and from ${EXTRA_WORKERS} workers and keeps the higher figure; (a)'s slices use the generator that won the round before.`,
    `- Load generator: ${generatorVerdict}; at most ${
      fixed(Math.max(0, ...cases.flatMap((c) => (c.paired === undefined ? [] : [c.paired.measurement.generatorCores]))), 2)
    } cores during the signcraft cases.`,
    "",
    "| database | case | req/s | p50 ms | p99 ms | CPU µs/req | (a) around it, req/s | ratio to (a) | slices' ratios to (a) | ratio to (b) | CPU ratio to (a) | target (a) | verdict |",
    "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"
  ]
  interface Compared {
    readonly bare: number
    readonly toBare: number
    readonly slices: string
    readonly toSame: number
    readonly cpuRatio: number
  }
  const row = (database: string, label: string, m: Measurement, compared: Compared, target?: number) => {
    const verdict = target === undefined ? "" : compared.toBare >= target ? "PASS" : "BELOW"
    return `| ${database} | ${label} | ${fixed(m.rps, 0)} | ${fixed(m.p50, 1)} | ${fixed(m.p99, 1)} | ${fixed(m.cpuUsPerRequest, 0)} | ${
      fixed(compared.bare, 0)
    } | ${fixed(compared.toBare, 3)} | ${compared.slices} | ${fixed(compared.toSame, 3)} | ${fixed(compared.cpuRatio, 3)} | ${
      target === undefined ? "" : `≥ ${target}`
    } | ${verdict} |`
  }
  // The baselines' own rows: each against the whole run's mean, to show how far the machine drifted.
  const runMean = referenceOf(baselines, everyRound)
  const againstRunMean = (m: Measurement): Compared => ({
    bare: runMean.bare,
    toBare: ratio(m.rps, runMean.bare),
    slices: "",
    toSame: ratio(m.rps, runMean.same),
    cpuRatio: ratio(runMean.bareCpu, m.cpuUsPerRequest)
  })
  for (const [round, b] of baselines.bare.entries()) {
    const generator = b.workers === 1 ? "1 autocannon thread" : `${b.workers} autocannon workers`
    lines.push(row("-", `(a) bare node:http, round ${round + 1} (${generator})`, b.measurement, againstRunMean(b.measurement)))
  }
  for (const [round, m] of baselines.same.entries()) lines.push(row("-", `(b) same response, round ${round + 1}`, m, againstRunMean(m)))
  for (const result of cases) {
    if (result.paired === undefined || result.round === undefined) {
      lines.push(`| ${result.leg} | ${result.label} | FAILED | | | | | | | | | ${result.target === undefined ? "" : `≥ ${result.target}`} | FAILED |`)
    } else {
      const { measurement, bare, ratios, cpuRatios } = result.paired
      const compared: Compared = {
        bare: mean(bare.map((m) => m.rps)),
        toBare: median(ratios),
        slices: ratios.map((r) => fixed(r, 3)).join(" "),
        toSame: ratio(measurement.rps, referenceOf(baselines, [result.round, result.round + 1]).same),
        cpuRatio: median(cpuRatios)
      }
      lines.push(row(result.leg, result.label, measurement, compared, result.target))
    }
  }
  lines.push("", "| database | server peak RSS | target |", "|---|---:|---|")
  for (const leg of legs) lines.push(`| ${leg.leg} | ${leg.peakRssMb} MB | ${leg.leg === "embedded" ? "≤ 400 MB" : ""} |`)
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
    }`
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
  // Runs a round of both baselines and answers its index.
  const baselineRound = async (when: string): Promise<number> => {
    const settled = await waitForQuietMachine()
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
    return bare.length - 1
  }

  await baselineRound("before the first case")

  // A slice of (a) between a case's slices, from the generator that won the latest round, on a
  // quiet machine: work a case slice leaves behind would slow (a) and so raise the case's ratio.
  const bareSlice = async () => {
    await waitForQuietMachine()
    const workers = bare.at(-1)?.workers === EXTRA_WORKERS ? EXTRA_WORKERS : 0
    return measure(bareA.server.child.pid, bareA.request, shape(SLICE_SECONDS, workers))
  }

  const cases: Array<CaseResult> = []
  const legs: Array<LegResult> = []
  const anyHttpCase = CASES.some((c) => selected(c.name))
  if (anyHttpCase) {
    const dataDir = mkdtempSync(join(tmpdir(), "signcraft-bench-"))
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const embedded = await runLeg("embedded", { DATA_DIR: dataDir, DATABASE_URL: "" }, pin, receiverUrl, baselineRound, bareSlice)
    cases.push(...embedded.results)
    legs.push(embedded.leg)
    const adminUrl = process.env.DATABASE_URL
    if (adminUrl !== undefined && adminUrl !== "") {
      const database = await createThrowawayDatabase(adminUrl)
      try {
        const postgres = await runLeg("postgres", { DATABASE_URL: database.url }, pin, receiverUrl, baselineRound, bareSlice)
        cases.push(...postgres.results)
        legs.push(postgres.leg)
      } finally {
        await database.drop()
      }
    } else {
      console.log("\npostgres leg: skipped (set DATABASE_URL, or run `npm run bench -- --postgres`)")
    }
  }

  let startup: StartupTimings | undefined
  if (selected("startup")) {
    console.log("\nstart-up: timing `node packages/server/bin/signcraft.js serve` to /healthz 200 (fresh, then second start)")
    startup = await timeStartups()
    console.log(`  fresh ${fixed(startup.fresh, 2)} s, second ${fixed(startup.second, 2)} s`)
  }

  const summary = summaryMarkdown({ bare, same }, cases, legs, startup, generatorVerdict)
  console.log(`\n${summary}`)
  appendSummary(summary)
  const failed = [
    ...bare.map((b) => b.measurement),
    ...same,
    ...cases.flatMap((c) => (c.paired === undefined ? [] : [c.paired.measurement, ...c.paired.bare]))
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
