import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { layerServices } from "../../src/app.js"
import { IdempotencyStore } from "../../src/services/requests/idempotency.js"
import { DeprecatedUsage } from "../../src/services/requests/deprecated-usage.js"
import { Credentials } from "../../src/services/credentials/credentials.js"
import { Identity } from "../../src/services/credentials/identity.js"
import { layerDatabase, migrate } from "../../src/storage/database.js"
import eventBodyOnly from "../../src/storage/migrations/0012_event_body_only.js"
import { databaseVariants, embeddedVariant, startApp, type TestDatabase } from "@signcraft/test-kit"
import { defaultSettings, Settings } from "../../src/services/settings.js"

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

  it("never offers an idempotency row of under a page to compression: a sealed answer cannot shrink", async () => {
    const store = await run(seedStore)
    const request = { storeId: store.id, key: "key-large", method: "POST", path: "/api/v3/orders", fingerprint: "a" }
    const body = JSON.stringify({ data: { note: "x".repeat(3000) } })
    const stored = await run(Effect.gen(function*() {
      const keys = yield* IdempotencyStore
      yield* keys.claim(request)
      yield* keys.complete(request, { status: 201, headers: {}, body })
      const replay = yield* keys.claim(request)
      // Sealed text is random to a compressor, which would keep it whole either way: a value that
      // would shrink shows whether the table offers it at all.
      const sql = yield* SqlClient.SqlClient
      const where = sql`store_id = ${store.id} AND idempotency_key = ${request.key}`
      const sealed = yield* sql<{ length: number }>`SELECT length(response_body) AS length FROM idempotency_keys WHERE ${where}`
      yield* sql`UPDATE idempotency_keys SET response_body = repeat('x', 6000) WHERE ${where}`
      const compressible = yield* sql<{ compression: string | null }>`
        SELECT pg_column_compression(response_body) AS compression FROM idempotency_keys WHERE ${where}`
      return { replay, sealed: sealed[0]?.length, compression: compressible[0]?.compression }
    }))
    expect(stored.replay).toEqual({ _tag: "Replay", response: { status: 201, headers: {}, body } })
    expect(stored.sealed).toBeGreaterThan(3000)
    expect(stored.compression).toBeNull()
  })

  it("keeps one copy of an event's payload: rows from before the body column get theirs from payload", async () => {
    const store = await run(seedStore)
    const rows = await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Back to the schema before 0012, with a row of each kind, then 0012 again.
      yield* sql`ALTER TABLE events ADD COLUMN payload jsonb`
      yield* sql`ALTER TABLE events ALTER COLUMN body DROP NOT NULL`
      yield* sql`INSERT INTO events (store_id, topic, payload) VALUES (${store.id}, 'old', '{"b":1,"a":[true]}'::jsonb)`
      yield* sql`INSERT INTO events (store_id, topic, payload, body) VALUES (${store.id}, 'new', '{}'::jsonb, '{"b":1,"a":[true]}')`
      yield* eventBodyOnly
      const columns = yield* sql<{ name: string }>`
        SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'payload'`
      const events = yield* sql<{ topic: string; body: string }>`SELECT topic, body FROM events WHERE store_id = ${store.id} ORDER BY id`
      return { columns, events }
    }))
    expect(rows.columns).toEqual([])
    // The old row's text is its jsonb document's (members by length, then name); the new row keeps its own.
    expect(rows.events).toEqual([{ topic: "old", body: '{"a": [true], "b": 1}' }, { topic: "new", body: '{"b":1,"a":[true]}' }])
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
