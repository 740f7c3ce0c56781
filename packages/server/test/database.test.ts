import { defaultSettings, layerDatabase, SCOPES, Settings } from "@signcraft/core"
import { Credentials, IdempotencyStore, Identity, RateLimiter } from "@signcraft/core/internal"
import { Clock, Effect, Layer, ManagedRuntime, Option } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { DEMO_EMAIL, type DemoData, DemoSeed, layerDemoSeed, seedDemoData } from "../src/demo-data.js"
import { makeLineOutput } from "../src/log-output.js"
import { layerPruning, pruneOnce } from "../src/pruning.js"

// One embedded database for the file: PGlite takes seconds to start.
const database = layerDatabase({ _tag: "Embedded", location: "memory" })
const services = Layer.mergeAll(Identity.layer, Credentials.layer, RateLimiter.layer, IdempotencyStore.layer).pipe(
  Layer.provideMerge(Layer.succeed(Settings, defaultSettings())),
  Layer.provideMerge(database)
)
const runtime = ManagedRuntime.make(services)

afterAll(async () => {
  await runtime.dispose()
})

const countCompanies = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM companies`
  return rows[0]?.n ?? 0
})

const seedIn = (environment: "development" | "test" | "production") =>
  Effect.gen(function*() {
    return yield* DemoSeed
  }).pipe(Effect.provide(layerDemoSeed(environment)))

describe("demo data", () => {
  it("is not created in test or production, even on an empty database", async () => {
    expect(Option.isNone(await runtime.runPromise(seedIn("test")))).toBe(true)
    expect(Option.isNone(await runtime.runPromise(seedIn("production")))).toBe(true)
    expect(await runtime.runPromise(countCompanies)).toBe(0)
  })

  it("is created once, in development, even when two starts race", async () => {
    const results = await runtime.runPromise(Effect.all([seedDemoData, seedDemoData], { concurrency: 2 }))
    const created = results.flatMap((result) => Option.toArray(result))
    expect(created).toHaveLength(1)
    expect(await runtime.runPromise(countCompanies)).toBe(1)
    const demo = created[0] as DemoData

    const principal = await runtime.runPromise(Effect.gen(function*() {
      return yield* (yield* Credentials).verify(demo.apiKey)
    }))
    expect(principal).toMatchObject({ storeId: demo.storeId, mode: "test", grant: { _tag: "Scoped", scopes: SCOPES } })
    expect(demo.apiKey.startsWith("sk_test_")).toBe(true)

    const store = await runtime.runPromise(Effect.gen(function*() {
      return yield* (yield* Identity).findStore(demo.storeId)
    }))
    expect(store).toMatchObject({ companyId: demo.companyId, platform: "custom", currency: "USD" })
    expect(demo.person?.email).toBe(DEMO_EMAIL)
    expect(demo.person?.password.length).toBeGreaterThanOrEqual(16)
  })

  it("is not created again on a database that has a company", async () => {
    expect(Option.isNone(await runtime.runPromise(seedIn("development")))).toBe(true)
    expect(await runtime.runPromise(countCompanies)).toBe(1)
  })
})

const windowStarts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ bucket: string }>`SELECT bucket FROM rate_limit_windows ORDER BY bucket`
  return rows.map((row) => row.bucket)
})

describe("pruning", () => {
  it("drops rate-limit windows older than an hour and keeps recent ones", async () => {
    const now = Date.now()
    await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO rate_limit_windows (bucket, window_start, used) VALUES
        ('old', ${now - 2 * 60 * 60 * 1000}, 1), ('recent', ${now - 60_000}, 1)`
    }))
    await runtime.runPromise(pruneOnce)
    expect(await runtime.runPromise(windowStarts)).toEqual(["recent"])
  })

  it("keeps running on its interval and reports nothing when all is well", async () => {
    const lines: Array<string> = []
    const output = makeLineOutput((chunk) => lines.push(chunk))
    // The test clock moves the interval by hand: each step must bring one more pass, seen by the
    // stale window it drops, so the test knows the passes ran rather than guessing they did.
    const stale = (round: number) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const now = yield* Clock.currentTimeMillis
        yield* sql`INSERT INTO rate_limit_windows (bucket, window_start, used) VALUES (${`stale-${round}`}, ${now - 2 * 60 * 60 * 1000}, 1)`
      })
    const untilPruned = (round: number) =>
      Effect.gen(function*() {
        for (let look = 0; look < 500 && (yield* windowStarts).includes(`stale-${round}`); look += 1) {
          yield* TestClock.withLive(Effect.sleep("10 millis"))
        }
        return !(yield* windowStarts).includes(`stale-${round}`)
      })
    const pruned = await runtime.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          yield* TestClock.setTime(Date.now())
          yield* Layer.build(layerPruning("20 millis", output))
          const seen: Array<boolean> = []
          for (const round of [1, 2, 3]) {
            yield* stale(round)
            yield* TestClock.adjust("20 millis")
            seen.push(yield* untilPruned(round))
          }
          return seen
        })
      ).pipe(Effect.provide(TestClock.layer()))
    )
    expect(pruned).toEqual([true, true, true])
    output.flush()
    expect(lines).toEqual([])
  })
})
