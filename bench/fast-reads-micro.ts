/**
 * The JavaScript cost of the fast reads alone, in process: `GET /api/v3/stores/me` and the cached
 * pricing read answered by `makeFastReads` many times over, with no socket and no load generator.
 * It tells apart changes to the fast path's own code far below what a loaded VM lets the HTTP
 * verdict see (a few per cent), which is how a change there is checked before the verdict runs.
 * Each case is answered by two apps in alternating rounds, one with metrics off and one with
 * `METRICS_TOKEN` set, so the cost of counting every answer for /metrics is read on the same
 * stretch of the machine's time.
 *
 *   node --conditions=@signcraft/source --import tsx bench/fast-reads-micro.ts
 *
 * MICRO_CALLS (200,000 per round) and MICRO_ROUNDS (15 per app): the figure is the median round's
 * ns per answer, headers built and body encoded, the log line formatted into a discarded string.
 */
import { Redacted } from "effect"
import { atOriginRoot } from "../packages/core/src/http/base-path.js"
import { type FastReads, makeFastReads } from "../packages/core/src/http/fast-reads.js"
import { createCustomiser, databaseVariants, startApp } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"
import { median } from "./verdict.js"

const CALLS = Math.max(1_000, Number(process.env.MICRO_CALLS ?? "200000"))
const ROUNDS = Math.max(1, Number(process.env.MICRO_ROUNDS ?? "15"))

const embedded = databaseVariants().find((variant) => variant.name === "embedded")
if (embedded === undefined) throw new Error("the embedded database variant is missing")
const variant = embedded

// An app with its fast reads, a key and a customiser whose pricing the full path has cached.
const prepare = async (metricsToken: string | undefined) => {
  const db = await variant.create()
  // The app's clock stands still: a verified key stays trusted (a second of this clock) however
  // long the rounds take, so the fast reads never step aside midway.
  const app = startApp(db.config, {
    rateLimitPerKeyPerMinute: 1_000_000_000,
    rateLimitPerIpPerMinute: 1_000_000_000,
    metricsToken: metricsToken === undefined ? undefined : Redacted.make(metricsToken)
  }, {}, { clock: adjustableClock() })
  await app.call("GET", "/healthz")
  const logged = { bytes: 0 }
  // The server's logger formats each line; so does this one, and drops it.
  const fast = await app.run(makeFastReads((line) => {
    logged.bytes += JSON.stringify(line).length
  }, undefined, atOriginRoot))
  const store = await app.seedStore({ scopes: ["store:read", "pricing:read"] })
  const customiser = await createCustomiser(app, store.storeId, { pricing: simpleLetterContent() })
  const paths = { "stores-me": "/api/v3/stores/me", "pricing-read": `/api/v3/customisers/${customiser.id}/pricing` }
  for (const [name, path] of Object.entries(paths)) {
    // The full path verifies the key and caches the document; the fast reads then hold them.
    const primed = await app.call("GET", path, { key: store.key })
    if (primed.status !== 200) throw new Error(`${name}: the full path answered ${primed.status}`)
  }
  // With the token, /metrics answers (and so every answer is counted); without it, it is not found.
  const metrics = await app.handler(new Request("http://127.0.0.1/metrics", {
    headers: metricsToken === undefined ? {} : { authorization: `Bearer ${metricsToken}` }
  }))
  if ((metrics.status === 200) !== (metricsToken !== undefined)) {
    throw new Error(`metrics ${metricsToken === undefined ? "off" : "on"}: /metrics answered ${metrics.status}`)
  }
  return { fast, key: store.key, paths, logged, dispose: async () => {
    await app.dispose()
    await db.cleanup()
  } }
}

// One round: ns per answer over CALLS answers.
const round = (fast: FastReads, name: string, path: string, key: string): number => {
  const headers = { authorization: `Bearer ${key}` }
  let bytes = 0
  const started = process.hrtime.bigint()
  for (let call = 0; call < CALLS; call += 1) {
    // A web-handler request has no peer: the full path primed the quota of "unknown".
    const answer = fast("GET", path, headers, "unknown")
    if (answer === undefined) throw new Error(`${name}: the fast reads stepped aside`)
    bytes += answer.body.length
  }
  if (bytes === 0) throw new Error(`${name}: empty answers`)
  return Number(process.hrtime.bigint() - started) / CALLS
}

const off = await prepare(undefined)
const on = await prepare(`micro_metrics_${Date.now()}`)
try {
  for (const name of ["stores-me", "pricing-read"] as const) {
    const times = { off: [] as Array<number>, on: [] as Array<number> }
    for (let index = 0; index < ROUNDS; index += 1) {
      // Alternating which goes first, so a drift of the machine's speed favours neither.
      const order = index % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)
      for (const which of order) {
        const app = which === "off" ? off : on
        times[which].push(round(app.fast, name, app.paths[name], app.key))
      }
    }
    const [offNs, onNs] = [median(times.off), median(times.on)]
    console.log(`${name}: median ${offNs.toFixed(0)} ns per answer with metrics off, ${onNs.toFixed(0)} ns with them on (${
      onNs >= offNs ? "+" : ""
    }${(onNs - offNs).toFixed(0)} ns)`)
    console.log(`  rounds off ${times.off.map((ns) => ns.toFixed(0)).join(", ")}; on ${times.on.map((ns) => ns.toFixed(0)).join(", ")}`)
  }
  if (off.logged.bytes === 0 || on.logged.bytes === 0) throw new Error("nothing was logged")
} finally {
  await off.dispose()
  await on.dispose()
}
