/**
 * CPU cost per request of the hot paths, for profiling rather than for a verdict: the server's
 * CPU time (from /proc) over a fixed number of requests, which a loaded machine changes far
 * less than it changes req/s. Each case runs on a server of its own (embedded database, or a
 * throwaway PostgreSQL database when DATABASE_URL is set), seeded as bench/http.ts seeds it.
 *
 *   node --conditions=@signcraft/source --import tsx bench/profile.ts
 *
 * PROFILE_CASES (stores-me,pricing-read,order-write), PROFILE_REQUESTS (20000, after a quarter
 * as many to warm up), PROFILE_CONNECTIONS (50), PROFILE_ROUNDS (3: the figure is their median),
 * PROFILE_SOURCE=1 (run the TypeScript source through tsx instead of the build, so an edit is
 * measured without `npm run build`; the loader's own thread is not counted: only the main
 * thread's CPU is read), PROFILE_DIR (the servers run with --cpu-prof and write their profiles
 * there; read them with bench/profile-top.ts). Loopback only; every run is bounded by its count.
 */
import { readFileSync } from "node:fs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type CaseRequest, measure } from "./load.js"
import { median } from "./verdict.js"
import { BUILT_SERVER, ensureBuilt, freePort, spawnServer, stopServer, waitUntilAnswering } from "./processes.js"
import { checkOnce, orderBody, seed, type Seeded } from "./seed.js"
import { serverNodeFlags } from "../packages/server/bin/node-flags.js"

const CASES = (process.env.PROFILE_CASES ?? "stores-me,pricing-read,order-write").split(",").map((name) => name.trim())
const REQUESTS = Math.max(100, Number(process.env.PROFILE_REQUESTS ?? "20000"))
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? "50")
const ROUNDS = Math.max(1, Number(process.env.PROFILE_ROUNDS ?? "3"))
const SOURCE = process.env.PROFILE_SOURCE === "1"
const PROFILE_DIR = process.env.PROFILE_DIR === undefined || process.env.PROFILE_DIR === "" ? undefined : process.env.PROFILE_DIR
const OPERATOR_TOKEN = `profile_${Date.now()}`
const UNTHROTTLED = "1000000000"
// A request that takes longer than this has hung: the run stops rather than wait.
const BOUND_SECONDS = 600

const REQUESTS_OF: Record<string, { readonly status: number; readonly request: (base: string, seeded: Seeded) => CaseRequest }> = {
  "stores-me": {
    status: 200,
    request: (base, seeded) => ({ url: `${base}/api/v3/stores/me`, method: "GET", headers: { authorization: `Bearer ${seeded.key}` } })
  },
  "pricing-read": {
    status: 200,
    request: (base, seeded) => ({
      url: `${base}/api/v3/customisers/${seeded.customiserId}/pricing`,
      method: "GET",
      headers: { authorization: `Bearer ${seeded.key}` }
    })
  },
  "order-write": {
    status: 201,
    request: (base, seeded) => ({
      url: `${base}/api/v3/orders`,
      method: "POST",
      headers: { authorization: `Bearer ${seeded.key}`, "content-type": "application/json", "idempotency-key": "profile-[<id>]" },
      body: JSON.stringify(orderBody(seeded.integrationId, seeded.productId)),
      unique: true
    })
  }
}

// The main thread's CPU time in µs (/proc/<pid>/task/<pid>/stat): the server's JavaScript,
// without the TypeScript loader's thread or V8's helpers.
const mainThreadMicros = (pid: number | undefined): number => {
  if (pid === undefined) return 0
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1_000_000) / 100
}

const receiverPort = await freePort()
const receiver = spawnServer(["bench/integrator-receiver.mjs"], { PORT: String(receiverPort) })
await waitUntilAnswering(receiver, `http://127.0.0.1:${receiverPort}/`, 200)
if (!SOURCE) ensureBuilt()
const entry = SOURCE ? ["--conditions=@signcraft/source", "--import", "tsx", "packages/server/src/bin.ts"] : [BUILT_SERVER]
console.log(`profile: ${REQUESTS} requests × ${ROUNDS} rounds at ${CONNECTIONS} connections, ${SOURCE ? "source (tsx)" : "build"}${
  PROFILE_DIR === undefined ? "" : `, CPU profiles in ${PROFILE_DIR}`
}`)

try {
  for (const name of CASES) {
    const spec = REQUESTS_OF[name]
    if (spec === undefined) throw new Error(`unknown case ${name}; known: ${Object.keys(REQUESTS_OF).join(", ")}`)
    const dataDir = mkdtempSync(join(tmpdir(), "signcraft-profile-"))
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const profile = PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`]
    const server = spawnServer([...profile, ...serverNodeFlags(), ...entry, "serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: base,
      SIGNCRAFT_ENV: "test",
      OPERATOR_TOKEN,
      RATE_LIMIT_PER_KEY_PER_MINUTE: UNTHROTTLED,
      RATE_LIMIT_PER_IP_PER_MINUTE: UNTHROTTLED,
      DATA_DIR: dataDir,
      ...(process.env.DATABASE_URL === undefined ? { DATABASE_URL: "" } : {})
    })
    try {
      await waitUntilAnswering(server, `${base}/healthz`, 200)
      const request = spec.request(base, await seed(base, OPERATOR_TOKEN, `http://127.0.0.1:${receiverPort}/products`))
      await checkOnce(name, request, spec.status)
      const shape = (amount: number) => ({ seconds: BOUND_SECONDS, connections: CONNECTIONS, workers: 0, amount })
      await measure(server.child.pid, request, shape(Math.ceil(REQUESTS / 4)))
      const perRequest: Array<number> = []
      for (let round = 0; round < ROUNDS; round += 1) {
        const before = mainThreadMicros(server.child.pid)
        const m = await measure(server.child.pid, request, shape(REQUESTS))
        if (m.failures > 0) throw new Error(`${name}: ${m.failures} requests failed`)
        perRequest.push((mainThreadMicros(server.child.pid) - before) / m.requests)
        console.log(`  ${name} round ${round + 1}: ${m.cpuUsPerRequest.toFixed(1)} µs CPU/req (process), ${
          (perRequest.at(-1) ?? 0).toFixed(1)
        } µs (main thread), ${m.rps.toFixed(0)} req/s`)
      }
      console.log(`${name}: median ${median(perRequest).toFixed(1)} µs main-thread CPU per request (${perRequest.map((v) => v.toFixed(1)).join(", ")})`)
    } finally {
      await stopServer(server)
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
} finally {
  await stopServer(receiver)
}
