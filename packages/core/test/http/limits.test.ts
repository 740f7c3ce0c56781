import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, postgresVariant, startApp, TEST_SECRETS_KEY, type TestDatabase } from "@signcraft/test-kit"
import { adjustableClock, midMinuteClock } from "@signcraft/test-kit/clock"

const DIAGNOSTIC = { "x-signcraft-rate-limit-test": "true" }

// Quota windows are minute-aligned; a test that counts within one stands its app's clock in the
// middle of a minute.

describe.each(databaseVariants())("quotas ($name database)", (variant) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await variant.create()
  })
  afterAll(async () => {
    await db.cleanup()
  })

  it("limits each key to its quota with a 429 rate_limited, Retry-After and retry_after", async () => {
    const app = startApp(db.config, { rateLimitPerKeyPerMinute: 3, rateLimitPerIpPerMinute: 10_000 }, {}, { clock: midMinuteClock() })
    try {
      const seed = await app.seedStore()
      const other = await app.seedStore()
      for (let i = 0; i < 3; i++) expect((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status).toBe(200)
      const limited = await app.call("GET", "/api/v3/stores/me", { key: seed.key })
      expect(limited.status).toBe(429)
      expect(limited.body.code).toBe("rate_limited")
      expect(limited.headers.get("retry-after")).toBe("30")
      expect(limited.body.retry_after).toBe(30)
      // Another key has its own quota.
      expect((await app.call("GET", "/api/v3/stores/me", { key: other.key })).status).toBe(200)
    } finally {
      await app.dispose()
    }
  }, 120_000)

  it("gives the diagnostic header its own one-per-five-seconds bucket for test keys", async () => {
    // A clock standing at the start of a quota minute: the five seconds are stepped through, not waited.
    const minute = 60_000
    const clock = adjustableClock({ start: Math.ceil(Date.now() / minute) * minute })
    const app = startApp(db.config, { rateLimitPerKeyPerMinute: 2, rateLimitPerIpPerMinute: 10_000 }, {}, { clock })
    try {
      const seed = await app.seedStore({ scopes: ["store:read"] }, { mode: "test" })
      const first = await app.call("GET", "/api/v3/stores/me", { key: seed.key, headers: DIAGNOSTIC })
      expect(first.status).toBe(200)
      const second = await app.call("GET", "/api/v3/stores/me", { key: seed.key, headers: DIAGNOSTIC })
      expect(second.status).toBe(429)
      expect(second.body.code).toBe("rate_limited")
      expect(second.headers.get("retry-after")).toBe("5")
      expect(second.body.retry_after).toBe(5)
      // The diagnostic calls consumed none of the ordinary quota of 2.
      expect((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status).toBe(200)
      expect((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status).toBe(200)
      // The window is five seconds from the accepted call: still closed a millisecond before, open at its end.
      clock.advance(5000 - 1)
      const early = await app.call("GET", "/api/v3/stores/me", { key: seed.key, headers: DIAGNOSTIC })
      expect(early.status).toBe(429)
      expect(early.body.retry_after).toBe(1)
      clock.advance(1)
      const third = await app.call("GET", "/api/v3/stores/me", { key: seed.key, headers: DIAGNOSTIC })
      expect(third.status).toBe(200)
    } finally {
      await app.dispose()
    }
  }, 120_000)

  it("ignores the diagnostic header for live keys and in production", async () => {
    for (const [mode, environment] of [["live", "test"], ["test", "production"]] as const) {
      const production = environment === "production" ? { baseUrl: "https://signs.example", secretsKey: TEST_SECRETS_KEY } : {}
      // Production seals with its own SECRETS_KEY: it gets a database of its own, since what the
      // other apps sealed under the development key (the cursor key among it) does not open with it.
      const database = environment === "production" ? { _tag: "Embedded" as const, location: "memory" as const } : db.config
      const app = startApp(database, { rateLimitPerKeyPerMinute: 100, rateLimitPerIpPerMinute: 10_000, environment, ...production })
      try {
        const seed = await app.seedStore({ scopes: ["store:read"] }, { mode })
        for (let i = 0; i < 3; i++) {
          expect((await app.call("GET", "/api/v3/stores/me", { key: seed.key, headers: DIAGNOSTIC })).status).toBe(200)
        }
      } finally {
        await app.dispose()
      }
    }
  })

  it("applies the per-IP backstop to every request, authenticated or not", async () => {
    // A database of its own: the IP counter must not carry the other tests' requests.
    const own = await variant.create()
    const app = startApp(own.config, { rateLimitPerKeyPerMinute: 1000, rateLimitPerIpPerMinute: 2 }, {}, { clock: midMinuteClock() })
    try {
      const seed = await app.seedStore()
      const statuses: Array<number> = []
      for (let i = 0; i < 2; i++) statuses.push((await app.call("GET", "/healthz")).status)
      statuses.push((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status)
      expect(statuses).toEqual([200, 200, 429])
    } finally {
      await app.dispose()
      await own.cleanup()
    }
  }, 180_000)

  it("counts refused operator tokens against the per-IP quota, then answers 429", async () => {
    const own = await variant.create()
    const app = startApp(own.config, { rateLimitPerIpPerMinute: 3 }, {}, { clock: midMinuteClock() })
    try {
      const guess = (token: string) =>
        app.call("GET", "/operator/v1/stores/1/connections", { headers: token === "" ? {} : { authorization: `Bearer ${token}` } })
      const statuses: Array<number> = []
      for (const token of ["guess-1", "", "guess-2", "guess-3"]) statuses.push((await guess(token)).status)
      expect(statuses).toEqual([401, 401, 401, 429])
      const limited = await guess("guess-4")
      expect(limited.body.code).toBe("rate_limited")
      expect(limited.headers.get("retry-after")).toBe("30")
      // The right token is no guess: it is still served.
      expect((await app.operator("GET", "/stores/1/connections")).status).not.toBe(429)
    } finally {
      await app.dispose()
      await own.cleanup()
    }
  }, 180_000)
})

const pgUrl = process.env.DATABASE_URL
describe.runIf(pgUrl !== undefined && pgUrl !== "")("quotas across processes on one PostgreSQL", () => {
  it("admits exactly the limit across two server instances", async () => {
    const db = await postgresVariant(pgUrl ?? "").create()
    const limit = 25
    const clock = midMinuteClock()
    const first = startApp(db.config, { rateLimitPerKeyPerMinute: limit, rateLimitPerIpPerMinute: 100_000 }, {}, { clock })
    const second = startApp(db.config, { rateLimitPerKeyPerMinute: limit, rateLimitPerIpPerMinute: 100_000 }, {}, { clock })
    try {
      const seed = await first.seedStore()
      let admitted = 0
      const open = new Set([first, second])
      for (let round = 0; round < 200 && open.size > 0; round++) {
        const results = await Promise.all([...open].map(async (app) => ({ app, res: await app.call("GET", "/api/v3/stores/me", { key: seed.key }) })))
        for (const { app, res } of results) {
          if (res.status === 200) admitted += 1
          else {
            expect(res.status).toBe(429)
            open.delete(app)
          }
        }
      }
      expect(admitted).toBe(limit)
    } finally {
      await first.dispose()
      await second.dispose()
      await db.cleanup()
    }
  }, 180_000)
})
