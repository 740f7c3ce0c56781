import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { midMinuteClock } from "@signcraft/test-kit/clock"

// Quota windows are minute-aligned; a test that counts within one stands its app's clock in the
// middle of a minute.

// With quotas large enough for leases of several tokens, most requests are admitted from
// tokens this process already holds, without asking the database. The count stays exact.
describe.each(databaseVariants())("quotas served from leased tokens ($name database)", (variant) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await variant.create()
  })
  afterAll(async () => {
    await db.cleanup()
  })

  it("admits exactly the key's quota, then answers 429", async () => {
    const app = startApp(db.config, { rateLimitPerKeyPerMinute: 40, rateLimitPerIpPerMinute: 100_000 }, {}, { clock: midMinuteClock() })
    try {
      const seed = await app.seedStore()
      const statuses: Array<number> = []
      for (let i = 0; i < 41; i++) statuses.push((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status)
      expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true)
      expect(statuses[40]).toBe(429)
    } finally {
      await app.dispose()
    }
  }, 120_000)

  it("counts requests refused for their scope against the key's quota", async () => {
    const app = startApp(db.config, { rateLimitPerKeyPerMinute: 40, rateLimitPerIpPerMinute: 100_000 }, {}, { clock: midMinuteClock() })
    try {
      const seed = await app.seedStore({ scopes: ["analytics:read"] })
      const statuses: Array<number> = []
      for (let i = 0; i < 41; i++) statuses.push((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status)
      expect(statuses.slice(0, 40)).toEqual(Array.from({ length: 40 }, () => 403))
      expect(statuses[40]).toBe(429)
    } finally {
      await app.dispose()
    }
  }, 120_000)

  it("spends one per-IP token per request, authenticated, unauthenticated or public", async () => {
    // A database of its own: the IP counter must not carry the other tests' requests.
    const own = await variant.create()
    const app = startApp(own.config, { rateLimitPerKeyPerMinute: 100_000, rateLimitPerIpPerMinute: 40 }, {}, { clock: midMinuteClock() })
    try {
      const seed = await app.seedStore()
      const statuses: Array<number> = []
      for (let i = 0; i < 20; i++) statuses.push((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status)
      for (let i = 0; i < 10; i++) statuses.push((await app.call("GET", "/api/v3/stores/me")).status)
      for (let i = 0; i < 10; i++) statuses.push((await app.call("GET", "/healthz")).status)
      statuses.push((await app.call("GET", "/healthz")).status)
      statuses.push((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status)
      expect(statuses.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => 200))
      expect(statuses.slice(20, 30)).toEqual(Array.from({ length: 10 }, () => 401))
      expect(statuses.slice(30, 40)).toEqual(Array.from({ length: 10 }, () => 200))
      expect(statuses.slice(40)).toEqual([429, 429])
    } finally {
      await app.dispose()
      await own.cleanup()
    }
  }, 120_000)
})
