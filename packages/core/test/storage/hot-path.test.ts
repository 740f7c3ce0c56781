import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { layerServices } from "../../src/app.js"
import { Credentials } from "../../src/services/credentials/credentials.js"
import { Identity } from "../../src/services/credentials/identity.js"
import { bucketKey, RateLimiter } from "../../src/services/requests/rate-limiter.js"
import { layerDatabase } from "../../src/storage/database.js"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { defaultSettings, Settings } from "../../src/services/settings.js"

const testSettings = Layer.succeed(Settings, defaultSettings())

// The per-request services that keep the database off the hot path: quotas spend leased
// tokens in process, and a verified key brings its Store along.
describe.each(databaseVariants())("hot path services ($name database)", (variant) => {
  let db: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<RateLimiter | Credentials | Identity | SqlClient.SqlClient, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, RateLimiter | Credentials | Identity | SqlClient.SqlClient>) =>
    runtime.runPromise(effect)

  beforeAll(async () => {
    db = await variant.create()
    runtime = ManagedRuntime.make(layerServices.pipe(Layer.provide(testSettings), Layer.provideMerge(layerDatabase(db.config))))
  })
  afterAll(async () => {
    await runtime.dispose()
    await db.cleanup()
  })

  const usedIn = (bucket: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ used: number }>`SELECT used FROM rate_limit_windows WHERE bucket = ${bucketKey(bucket)}`
      return rows.map((row) => Number(row.used))
    })

  const takeConcurrently = (bucket: string, limit: number, count: number) =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      return yield* Effect.all(Array.from({ length: count }, () => limiter.take(bucket, limit, 60)), {
        concurrency: "unbounded"
      })
    })

  it("shares one lease among concurrent requests and sizes it to a very large quota", async () => {
    const bucket = `test:large:${Date.now()}`
    const admissions = await run(takeConcurrently(bucket, 1_000_000, 50))
    expect(admissions.every((admission) => admission._tag === "Admitted")).toBe(true)
    // One lease of a 256th of the limit, not 50 leases.
    expect(await run(usedIn(bucket))).toEqual([3906])
  })

  it("keeps the usual quotas at leases of 32 tokens", async () => {
    const bucket = `test:usual:${Date.now()}`
    await run(takeConcurrently(bucket, 600, 5))
    expect(await run(usedIn(bucket))).toEqual([32])
  })

  it("keeps windows under fixed-length names, bounded in memory, and only once a request was admitted", async () => {
    const small = ManagedRuntime.make(
      RateLimiter.layerWith({ maxWindows: 3 }).pipe(Layer.provide(testSettings), Layer.provideMerge(layerDatabase(db.config)))
    )
    try {
      const result = await small.runPromise(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        const stamp = Date.now()
        // A refused bucket (a spent quota) never enters memory.
        const refused = yield* limiter.take(`test:refused:${stamp}`, 0, 60)
        const afterRefusal = limiter.windowsInMemory()
        for (let i = 0; i < 5; i++) yield* limiter.take(`test:bounded:${stamp}:${i}`, 10, 60)
        // A name of 900 KB is stored under its hash.
        const huge = `test:huge:${stamp}:${"x".repeat(900_000)}`
        yield* limiter.take(huge, 10, 60)
        const stored = yield* sql<{ bucket: string }>`SELECT bucket FROM rate_limit_windows WHERE bucket = ${bucketKey(huge)}`
        const longest = yield* sql<{ longest: number }>`SELECT max(length(bucket))::int AS longest FROM rate_limit_windows`
        return { refused, afterRefusal, inMemory: limiter.windowsInMemory(), stored, longest: longest[0]?.longest }
      }))
      expect(result.refused._tag).toBe("Limited")
      expect(result.afterRefusal).toBe(0)
      expect(result.inMemory).toBe(3)
      expect(result.stored).toHaveLength(1)
      expect(result.longest).toBe(43)
    } finally {
      await small.dispose()
    }
  })

  it("admits exactly the limit among concurrent requests", async () => {
    const bucket = `test:exact:${Date.now()}`
    const admissions = await run(takeConcurrently(bucket, 10, 40))
    expect(admissions.filter((admission) => admission._tag === "Admitted")).toHaveLength(10)
    for (const admission of admissions) {
      if (admission._tag === "Limited") expect(admission.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    }
    expect(await run(usedIn(bucket))).toEqual([10])
  })

  it("verifies a key together with its Store", async () => {
    const { store, key } = await run(Effect.gen(function*() {
      const identity = yield* Identity
      const credentials = yield* Credentials
      const company = yield* identity.createCompany({ name: "Acme" })
      const store = yield* identity.createStore({ companyId: company.id, name: "Shop", platform: "shopify", currency: "EUR" })
      const issued = yield* credentials.issue(store.id, "test", { _tag: "Scoped", scopes: ["store:read"] })
      return { store, key: issued.key }
    }))
    const principal = await run(Effect.gen(function*() {
      const credentials = yield* Credentials
      return yield* credentials.verify(key)
    }))
    expect(principal.storeId).toBe(store.id)
    expect(principal.store).toEqual(store)
  })
})
