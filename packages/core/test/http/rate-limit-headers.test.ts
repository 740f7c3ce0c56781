import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { midMinuteClock } from "@signcraft/test-kit/clock"

// The app's clock stands in the middle of a minute: 30 seconds to the window's end.
describe.each(databaseVariants())("RateLimit headers ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 4, rateLimitPerIpPerMinute: 10_000 }, {}, { clock: midMinuteClock() })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("tell every v3 answer to a key its policy and what is left, down to the 429", async () => {
    const seed = await app.seedStore()
    const seen: Array<string | null> = []
    for (let i = 0; i < 4; i++) {
      const res = await app.call("GET", "/api/v3/stores/me", { key: seed.key })
      expect(res.status).toBe(200)
      expect(res.headers.get("ratelimit-policy")).toBe('"key";q=4;w=60')
      seen.push(res.headers.get("ratelimit"))
    }
    expect(seen).toEqual(['"key";r=3;t=30', '"key";r=2;t=30', '"key";r=1;t=30', '"key";r=0;t=30'])
    const limited = await app.call("GET", "/api/v3/stores/me", { key: seed.key })
    expect(limited.status).toBe(429)
    expect(limited.headers.get("ratelimit")).toBe('"key";r=0;t=30')
    expect(limited.headers.get("retry-after")).toBe("30")
  })

  it("carry them on errors of a known key, and not where no key was recognised or on v2", async () => {
    const seed = await app.seedStore({ scopes: ["store:read", "customisers:read"] })
    const missing = await app.call("GET", "/api/v3/customisers/999999", { key: seed.key })
    expect(missing.status).toBe(404)
    expect(missing.headers.get("ratelimit")).toBe('"key";r=3;t=30')
    const forbidden = await app.call("GET", "/api/v3/webhook-subscriptions", { key: seed.key })
    expect(forbidden.status).toBe(403)
    expect(forbidden.headers.get("ratelimit")).toBe('"key";r=2;t=30')
    const anonymous = await app.call("GET", "/api/v3/stores/me")
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get("ratelimit")).toBeNull()
    const legacy = await app.call("GET", "/api/v2/customisers", { key: seed.key })
    expect(legacy.headers.get("deprecation")).not.toBeNull()
    expect(legacy.headers.get("ratelimit")).toBeNull()
  })
})
