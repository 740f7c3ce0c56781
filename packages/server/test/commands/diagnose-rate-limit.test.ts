import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { type ProxyAction, startLoopbackServer, startProxy } from "@signcraft/test-kit/loopback"
import { diagnosticInterval, type MonotonicClock, runDiagnoseRateLimit } from "../../src/commands/diagnose-rate-limit.js"
import { capture } from "./support.js"

const REMINDER = /revoke the test key/

// A monotonic clock that only moves when told: `sleep` and each answer's `cost` advance it.
const steppedClock = () => {
  let now = 1_000
  const sleeps: Array<number> = []
  const clock: MonotonicClock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms)
      now += ms
    }
  }
  return { clock, sleeps, advance: (ms: number) => {
      now += ms
    } }
}

const rateLimited = (retryAfter: string | undefined, body: Record<string, unknown> = {}): ProxyAction => ({
  _tag: "Answer",
  status: 429,
  headers: retryAfter === undefined ? {} : { "retry-after": retryAfter },
  body: { status: 429, code: "rate_limited", detail: "slow down", request_id: "req_p", ...body }
})
const ok: ProxyAction = { _tag: "Answer", status: 200, body: { data: { id: 1 } } }

describe.each(databaseVariants())("signcraft diagnose rate-limit ($name database)", (variant) => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  beforeAll(async () => {
    db = await variant.create()
    server = await startLoopbackServer(db.config)
  })
  afterAll(async () => {
    await server?.dispose()
    await db?.cleanup()
  })

  // The check through a proxy in front of the real server, which records what was sent.
  const diagnose = async (
    plan: (index: number) => ProxyAction,
    options: { readonly key?: string; readonly clock?: MonotonicClock; readonly json?: boolean; readonly onRequest?: (index: number) => void } = {}
  ) => {
    const key = options.key ?? (await server.seedStore({ scopes: ["store:read"] }, { mode: "test" })).key
    const proxy = await startProxy(server.url, (_request, index) => {
      options.onRequest?.(index)
      return plan(index)
    })
    try {
      const run = capture({ SIGNCRAFT_API_KEY: key })
      const code = await runDiagnoseRateLimit(
        { baseUrl: proxy.url, json: options.json ?? false, ...(options.clock === undefined ? {} : { clock: options.clock }) },
        run.context
      )
      return { code, out: run.out, err: run.err, seen: proxy.seen }
    } finally {
      await proxy.close()
    }
  }

  it("passes against the real server: 2xx, 429 rate_limited, then 2xx after Retry-After, one line per call", async () => {
    const result = await diagnose(() => ({ _tag: "Forward" }))
    expect(result.code).toBe(0)
    expect(result.out).toHaveLength(4)
    expect(result.out[0]).toMatch(/^call 1: 200 after \d+\.\d\d s \(req_\w+\)$/)
    expect(result.out[1]).toMatch(/^call 2: 429 rate_limited after \d+\.\d\d s \(req_\w+\)$/)
    expect(result.out[2]).toMatch(/^call 3: 200 after \d+\.\d\d s/)
    expect(result.out[3]).toBe("passed")
    expect(result.err.at(-1)).toMatch(REMINDER)
    // Serial, only GET /api/v3/stores/me, always with the diagnostic header.
    expect(result.seen.map((r) => [r.method, r.url, r.headers["x-signcraft-rate-limit-test"]])).toEqual(
      Array.from({ length: 3 }, () => ["GET", "/api/v3/stores/me", "true"])
    )
  }, 60_000)

  it("prints JSON lines with --json", async () => {
    const time = steppedClock()
    const result = await diagnose((index) => (index === 1 ? rateLimited("2") : ok), { clock: time.clock, json: true })
    expect(result.code).toBe(0)
    expect(result.out.map((line) => JSON.parse(line))).toEqual([
      { call: 1, status: 200, code: null, request_id: null, elapsed_ms: 0 },
      { call: 2, status: 429, code: "rate_limited", request_id: "req_p", elapsed_ms: 0 },
      { call: 3, status: 200, code: null, request_id: null, elapsed_ms: 2000 },
      { result: "passed" }
    ])
    expect(time.sleeps).toEqual([2000])
  })

  it("aborts after a call that deviates, sending nothing more", async () => {
    const cases: ReadonlyArray<readonly [string, (index: number) => ProxyAction, number]> = [
      ["call 1 not 2xx", () => ({ _tag: "Answer", status: 500, body: { code: "internal_error" } }), 1],
      ["call 1 redirected (never followed)", () => ({ _tag: "Answer", status: 302, headers: { location: "/api/v3/stores/me" } }), 1],
      ["call 2 not limited", () => ok, 2],
      ["call 2 another 429 code", (index) => (index === 0 ? ok : { ...rateLimited("1", { code: "quota_exceeded" }) }), 2],
      ["call 3 still limited", (index) => (index === 0 ? ok : rateLimited("0")), 3],
      ["call 1 network failure", () => ({ _tag: "Hangup" }), 1]
    ]
    for (const [name, plan, sent] of cases) {
      const result = await diagnose(plan)
      expect({ name, code: result.code, sent: result.seen.length }).toEqual({ name, code: 1, sent })
      expect(result.out).toHaveLength(sent === 1 && name.includes("network") ? 1 : sent + 1)
      expect(result.out.at(-1)).toMatch(/^deviation: /)
      expect(result.err.at(-1)).toMatch(REMINDER)
    }
  })

  it("aborts after a proxy in front of the real server deviates at call 2, sending no call 3", async () => {
    const result = await diagnose((index) => (index === 1 ? ok : { _tag: "Forward" }))
    expect(result.code).toBe(1)
    expect(result.seen).toHaveLength(2)
    expect(result.out[0]).toMatch(/^call 1: 200/)
    expect(result.out.at(-1)).toMatch(/^deviation: call 2 answered 200/)
  })

  it("takes the interval from Retry-After, falls back to retry_after only when the header is malformed, and aborts outside 0 to 5", () => {
    expect(diagnosticInterval("3", { retry_after: 1 })).toBe(3)
    expect(diagnosticInterval("soon", { retry_after: 1 })).toBe(1)
    expect(diagnosticInterval(null, { retry_after: 0 })).toBe(0)
    expect(diagnosticInterval("-1", { retry_after: 2 })).toBe(2)
    expect(diagnosticInterval("6", { retry_after: 1 })).toBeUndefined()
    expect(diagnosticInterval(null, {})).toBeUndefined()
    expect(diagnosticInterval("x", { retry_after: -1 })).toBeUndefined()
    expect(diagnosticInterval("x", { retry_after: 1.5 })).toBeUndefined()
    expect(diagnosticInterval("x", { retry_after: "2" })).toBeUndefined()
  })

  it("waits the fallback interval, and aborts after call 2 when no valid interval is given", async () => {
    const time = steppedClock()
    const fallback = await diagnose((index) => (index === 1 ? rateLimited("in a bit", { retry_after: 3 }) : ok), { clock: time.clock })
    expect(fallback.code).toBe(0)
    expect(time.sleeps).toEqual([3000])
    for (const [header, body] of [["7", { retry_after: 1 }], [undefined, {}], ["-2", { retry_after: 9 }]] as const) {
      const result = await diagnose((index) => (index === 1 ? rateLimited(header, body) : ok), { clock: steppedClock().clock })
      expect(result.code).toBe(1)
      expect(result.seen).toHaveLength(2)
      expect(result.out.at(-1)).toMatch(/^deviation: call 2 gave no valid interval/)
    }
  })

  it("enforces the 10 s burst deadline through the first 429 on the monotonic clock", async () => {
    const time = steppedClock()
    // Each answer takes 5.5 s: call 2's 429 arrives at 11 s.
    const result = await diagnose((index) => (index === 1 ? rateLimited("1") : ok), { clock: time.clock, onRequest: () => time.advance(5_500) })
    expect(result.code).toBe(1)
    expect(result.seen).toHaveLength(2)
    expect(result.out.at(-1)).toBe("deviation: call 2 did not complete within the 10 s burst deadline")
  })

  it("enforces the 20 s end-to-end deadline on the monotonic clock", async () => {
    const costs = [1_000, 8_000, 7_000]
    const time = steppedClock()
    const late = await diagnose((index) => (index === 1 ? rateLimited("5") : ok), { clock: time.clock, onRequest: (i) => time.advance(costs[i] ?? 0) })
    expect(late.code).toBe(1)
    expect(late.seen).toHaveLength(3)
    expect(late.out.at(-1)).toBe("deviation: call 3 did not complete within the 20 s end-to-end deadline")

    const inTime = steppedClock()
    const passed = await diagnose((index) => (index === 1 ? rateLimited("5") : ok), { clock: inTime.clock, onRequest: (i) => inTime.advance([0, 9_900, 5_000][i] ?? 0) })
    expect(passed.code).toBe(0)
    expect(inTime.clock.now() - 1_000).toBe(19_900)
  })

  it("refuses before sending anything with a live key, another key or no key (exit 2)", async () => {
    const live = await server.seedStore({ scopes: ["store:read"] }, { mode: "live" })
    const reasons = [/refusing a live key/, /needs a disposable test-mode key/, /SIGNCRAFT_API_KEY is not set/]
    for (const [index, key] of [live.key, "pk_something", ""].entries()) {
      const result = await diagnose(() => ok, { key })
      expect(result.code).toBe(2)
      expect(result.seen).toHaveLength(0)
      expect(result.out).toEqual([])
      expect(result.err).toHaveLength(1)
      expect(result.err[0]).toMatch(reasons[index] ?? /never/)
    }
  })
})
