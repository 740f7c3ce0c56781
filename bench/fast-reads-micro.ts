/**
 * The JavaScript cost of the fast reads alone, in process: `GET /api/v3/stores/me` and the cached
 * pricing read answered by `makeFastReads` many times over, with no socket and no load generator.
 * It tells apart changes to the fast path's own code far below what a loaded VM lets the HTTP
 * verdict see (a few per cent), which is how a change there is checked before the verdict runs.
 *
 *   node --conditions=@signcraft/source --import tsx bench/fast-reads-micro.ts
 *
 * MICRO_CALLS (200,000 per round) and MICRO_ROUNDS (15): the figure is the median round's ns per
 * answer, headers built and body encoded, the log line formatted into a discarded string.
 */
import { atOriginRoot } from "../packages/core/src/http/base-path.js"
import { makeFastReads } from "../packages/core/src/http/fast-reads.js"
import { createCustomiser, databaseVariants, startApp } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"
import { median } from "./verdict.js"

const CALLS = Math.max(1_000, Number(process.env.MICRO_CALLS ?? "200000"))
const ROUNDS = Math.max(1, Number(process.env.MICRO_ROUNDS ?? "15"))

const embedded = databaseVariants().find((variant) => variant.name === "embedded")
if (embedded === undefined) throw new Error("the embedded database variant is missing")
const db = await embedded.create()
// The app's clock stands still: a verified key stays trusted (a second of this clock) however long
// the rounds take, so the fast reads never step aside midway.
const app = startApp(db.config, { rateLimitPerKeyPerMinute: 1_000_000_000, rateLimitPerIpPerMinute: 1_000_000_000 }, {}, {
  clock: adjustableClock()
})
try {
  await app.call("GET", "/healthz")
  let logged = 0
  // The server's logger formats each line; so does this one, and drops it.
  const fast = await app.run(makeFastReads((line) => {
    logged += JSON.stringify(line).length
  }, undefined, atOriginRoot))
  const store = await app.seedStore({ scopes: ["store:read", "pricing:read"] })
  const customiser = await createCustomiser(app, store.storeId, { pricing: simpleLetterContent() })
  const cases = [
    { name: "stores-me", path: "/api/v3/stores/me" },
    { name: "pricing-read", path: `/api/v3/customisers/${customiser.id}/pricing` }
  ]
  for (const { name, path } of cases) {
    // The full path verifies the key and caches the document; the fast reads then hold them.
    const primed = await app.call("GET", path, { key: store.key })
    if (primed.status !== 200) throw new Error(`${name}: the full path answered ${primed.status}`)
    const headers = { authorization: `Bearer ${store.key}` }
    const perCall: Array<number> = []
    for (let round = 0; round < ROUNDS; round += 1) {
      let bytes = 0
      const started = process.hrtime.bigint()
      for (let call = 0; call < CALLS; call += 1) {
        // A web-handler request has no peer: the full path primed the quota of "unknown".
        const answer = fast("GET", path, headers, "unknown")
        if (answer === undefined) throw new Error(`${name}: the fast reads stepped aside`)
        bytes += answer.body.length
      }
      perCall.push(Number(process.hrtime.bigint() - started) / CALLS)
      if (bytes === 0) throw new Error(`${name}: empty answers`)
    }
    console.log(`${name}: median ${median(perCall).toFixed(0)} ns per answer (rounds ${perCall.map((ns) => ns.toFixed(0)).join(", ")})`)
  }
  if (logged === 0) throw new Error("nothing was logged")
} finally {
  await app.dispose()
  await db.cleanup()
}
