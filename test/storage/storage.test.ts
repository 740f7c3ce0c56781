import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { layerServices } from "../../packages/core/src/app.js"
import { IdempotencyStore } from "../../packages/core/src/services/idempotency.js"
import { DeprecatedUsage } from "../../packages/core/src/services/deprecated-usage.js"
import { Credentials } from "../../packages/core/src/services/credentials.js"
import { Identity } from "../../packages/core/src/services/identity.js"
import { layerDatabase, migrate } from "../../packages/core/src/storage/database.js"
import { databaseVariants, embeddedVariant, type TestDatabase } from "../support/databases.js"
import { startApp } from "../support/app.js"
import { defaultSettings, Settings } from "../../packages/core/src/services/settings.js"

const testSettings = Layer.succeed(Settings, defaultSettings())

describe.each(databaseVariants())("storage ($name database)", (variant) => {
  let db: TestDatabase
  let run: <A, E>(effect: Effect.Effect<A, E, IdempotencyStore | DeprecatedUsage | Credentials | Identity | SqlClient.SqlClient>) => Promise<A>
  let dispose: () => Promise<void>

  beforeAll(async () => {
    db = await variant.create()
    const layer = layerServices.pipe(Layer.provide(testSettings), Layer.provideMerge(layerDatabase(db.config)))
    const { ManagedRuntime } = await import("effect")
    const runtime = ManagedRuntime.make(layer)
    run = (effect) => runtime.runPromise(effect)
    dispose = () => runtime.dispose()
  })
  afterAll(async () => {
    await dispose()
    await db.cleanup()
  })

  const seedStore = Effect.gen(function*() {
    const identity = yield* Identity
    const company = yield* identity.createCompany({ name: "Acme" })
    return yield* identity.createStore({ companyId: company.id, name: "Shop", platform: "custom", currency: "USD" })
  })

  it("re-running the migrations changes nothing", async () => {
    expect(await run(migrate)).toEqual([])
  })

  it("rolls a failed transaction back", async () => {
    const count = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM companies`
      return rows[0]?.n ?? -1
    })
    const before = await run(count)
    await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO companies (name) VALUES ('doomed')`
        return yield* Effect.fail("boom")
      }))
    }).pipe(Effect.ignore))
    expect(await run(count)).toBe(before)
  })

  it("stores API keys only as a hash", async () => {
    const issued = await run(Effect.gen(function*() {
      const store = yield* seedStore
      return yield* (yield* Credentials).issue(store.id, "live", { _tag: "Scoped", scopes: ["store:read"] })
    }))
    expect(issued.key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/)
    const rows = await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql`SELECT * FROM api_keys WHERE id = ${issued.id}`
    }))
    expect(JSON.stringify(rows)).not.toContain(issued.key)
  })

  it("claims an idempotency key once, replays it, and refuses another body or a running request", async () => {
    const store = await run(seedStore)
    const request = { storeId: store.id, key: "key-1", method: "POST", path: "/api/v3/orders", fingerprint: "a" }
    const claims = await run(Effect.all(
      Array.from({ length: 20 }, () => Effect.result((Effect.gen(function*() { return yield* (yield* IdempotencyStore).claim(request) })))),
      { concurrency: 20 }
    ))
    const proceeded = claims.filter((c) => c._tag === "Success" && c.success._tag === "Proceed")
    expect(proceeded).toHaveLength(1)
    for (const c of claims) {
      if (c._tag === "Failure") expect(c.failure._tag).toBe("IdempotencyKeyInFlight")
    }
    await run(Effect.gen(function*() {
      yield* (yield* IdempotencyStore).complete(request, { status: 201, headers: { "content-type": "application/json" }, body: "{\"ok\":1}" })
    }))
    const replay = await run(Effect.gen(function*() { return yield* (yield* IdempotencyStore).claim(request) }))
    expect(replay).toEqual({ _tag: "Replay", response: { status: 201, headers: { "content-type": "application/json" }, body: "{\"ok\":1}" } })
    const conflict = await run(Effect.result(Effect.gen(function*() {
      return yield* (yield* IdempotencyStore).claim({ ...request, fingerprint: "b" })
    })))
    expect(conflict._tag === "Failure" && conflict.failure._tag).toBe("IdempotencyKeyConflict")
    // Keys are scoped to the Store: another Store may use the same key.
    const other = await run(seedStore)
    const elsewhere = await run(Effect.gen(function*() { return yield* (yield* IdempotencyStore).claim({ ...request, storeId: other.id }) }))
    expect(elsewhere._tag).toBe("Proceed")
  })

  it("releases the key when the first request ends in a server error", async () => {
    const store = await run(seedStore)
    const request = { storeId: store.id, key: "key-500", method: "PUT", path: "/x", fingerprint: "a" }
    const first = await run(Effect.gen(function*() {
      const s = yield* IdempotencyStore
      const claim = yield* s.claim(request)
      yield* s.complete(request, { status: 503, headers: {}, body: "" })
      return claim
    }))
    expect(first._tag).toBe("Proceed")
    expect((await run(Effect.gen(function*() { return yield* (yield* IdempotencyStore).claim(request) })))._tag).toBe("Proceed")
  })

  it("counts deprecated operations per API key", async () => {
    const result = await run(Effect.gen(function*() {
      const store = yield* seedStore
      const key = yield* (yield* Credentials).issue(store.id, "test", { _tag: "LegacyWildcard" })
      const usage = yield* DeprecatedUsage
      yield* usage.record(key.id, "GET /api/v2/customisers")
      yield* usage.record(key.id, "GET /api/v2/customisers")
      yield* usage.record(key.id, "POST /api/orders")
      return yield* usage.forStore(store.id)
    }))
    expect(result.map((r) => [r.operation, r.count])).toEqual([["GET /api/v2/customisers", 2], ["POST /api/orders", 1]])
    expect(result[0]?.lastSeenAt).toBeInstanceOf(Date)
  })
})

describe("embedded database durability", () => {
  it("keeps data across a restart of the same DATA_DIR", async () => {
    const db = await embeddedVariant.create()
    try {
      const first = startApp(db.config)
      const seed = await first.seedStore()
      expect((await first.call("GET", "/api/v3/stores/me", { key: seed.key })).status).toBe(200)
      await first.dispose()
      const second = startApp(db.config)
      const res = await second.call("GET", "/api/v3/stores/me", { key: seed.key })
      expect(res.status).toBe(200)
      expect(res.body.data.id).toBe(seed.storeId)
      await second.dispose()
    } finally {
      await db.cleanup()
    }
  }, 180_000)
})
