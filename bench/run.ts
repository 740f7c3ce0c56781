/**
 * `npm run bench`: every benchmark, each in its own process so one cannot skew another, then one
 * markdown summary (the tables each appended to BENCH_SUMMARY_FILE) that bench/RESULTS.md records.
 *
 *   npm run bench                                   embedded database only
 *   npm run bench -- --postgres                     also PostgreSQL: a throwaway database on
 *                                                   127.0.0.1:5432 (user postgres), dropped after
 *   DATABASE_URL=postgres://… npm run bench         also PostgreSQL, on that server
 *
 * BENCH_CASES (comma list) picks what runs: the HTTP cases of bench/http.ts (stores-me,
 * pricing-read, pricing-read-metrics, customiser-list, order-write, storefront-design,
 * analytics-load, startup; its baselines always run) and pricing-validate, analytics, webhooks.
 * BENCH_SECONDS (10) is the length of each sustained HTTP run and of the webhook delay run;
 * BENCH_REPEATS (3) how many sustained runs an HTTP case's verdict rests on, each between two
 * runs of the bare server; BENCH_SLICES (5; 0 for none) the diagnostic slices;
 * BENCH_CONNECTIONS (50); BENCH_ORDERS (1,000,000) the orders imported for the memory line;
 * BENCH_QUIET_TIMEOUT_SECONDS (60) the longest wait for a quiet machine before a run. A smoke run:
 * `BENCH_SECONDS=2 BENCH_REPEATS=1 BENCH_SLICES=0 BENCH_CASES=stores-me npm run bench`.
 * Exits non-zero only when a benchmark crashes; a figure below its line is reported, not fatal.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("..", import.meta.url))
const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
const HTTP_CASES = [
  "stores-me",
  "pricing-read",
  "pricing-read-metrics",
  "customiser-list",
  "order-write",
  "storefront-design",
  "analytics-load",
  "startup"
]

interface Benchmark {
  readonly file: string
  /** The BENCH_CASES names this benchmark serves. */
  readonly cases: ReadonlyArray<string>
}

const BENCHMARKS: ReadonlyArray<Benchmark> = [
  { file: "bench/http.ts", cases: HTTP_CASES },
  { file: "bench/pricing-validate.ts", cases: ["pricing-validate"] },
  { file: "bench/analytics.ts", cases: ["analytics"] },
  { file: "bench/webhooks.ts", cases: ["webhooks"] }
]

const args = process.argv.slice(2)
const unknown = args.filter((arg) => arg !== "--postgres")
if (unknown.length > 0) {
  console.error(`unknown argument(s): ${unknown.join(" ")} (only --postgres is accepted)`)
  process.exit(2)
}
const selected = (process.env.BENCH_CASES ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "")
const known = BENCHMARKS.flatMap((benchmark) => benchmark.cases)
const misspelt = selected.filter((name) => !known.includes(name))
if (misspelt.length > 0) {
  console.error(`BENCH_CASES names unknown case(s): ${misspelt.join(", ")}; known: ${known.join(", ")}`)
  process.exit(2)
}

// Each benchmark creates its own throwaway database on the server this URL names, and drops it.
const databaseUrl = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== ""
  ? process.env.DATABASE_URL
  : args.includes("--postgres")
  ? LOCAL_POSTGRES
  : undefined

const summaryDir = mkdtempSync(join(tmpdir(), "signcraft-bench-summary-"))
const summaryFile = join(summaryDir, "summary.md")

const runOne = (file: string) =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ["--conditions=@signcraft/source", "--import", "tsx", file], {
      cwd: repoRoot,
      stdio: "inherit",
      env: {
        ...process.env,
        BENCH_SUMMARY_FILE: summaryFile,
        ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl })
      }
    })
    child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
  })

let failures = 0
try {
  for (const benchmark of BENCHMARKS) {
    if (selected.length > 0 && !benchmark.cases.some((name) => selected.includes(name))) continue
    console.log(`\n=== ${benchmark.file} ===`)
    const code = await runOne(benchmark.file)
    if (code !== 0) {
      console.error(`${benchmark.file} exited with ${code}`)
      failures += 1
    }
  }
  let summary = ""
  try {
    summary = readFileSync(summaryFile, "utf8").trim()
  } catch {
    // No benchmark got as far as its summary.
  }
  console.log(`\n=== summary (markdown) ===\n\n${summary === "" ? "(nothing measured)" : summary}`)
  console.log(`\nPostgreSQL: ${databaseUrl === undefined ? "not measured (set DATABASE_URL or pass --postgres)" : "measured"}`)
} finally {
  rmSync(summaryDir, { recursive: true, force: true })
}
process.exitCode = failures === 0 ? 0 : 1
