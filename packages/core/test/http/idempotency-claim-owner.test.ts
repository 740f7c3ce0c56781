import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { canonicalFingerprint } from "../../src/http/middleware/body.js"
import { ClaimOwner, layerSessionLockOwner } from "../../src/storage/claim-owner.js"
import { layerPostgres } from "../../src/storage/postgres.js"
import { createCustomiser, databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"

// A key claimed by a request whose process died resolves on the first retry, never after the
// claim's lease; a key claimed by a process still alive stays in flight.
describe.each(databaseVariants())("Idempotency-Key claims and their owner's life ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config)
  })

  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const body = simpleLetterContent()
  const fingerprint = canonicalFingerprint(new TextEncoder().encode(JSON.stringify(body)))

  // A claim as a request of the process `owner` left it: in flight, its lease a minute long.
  const leaveClaim = (storeId: number, key: string, path: string, owner: string | null) =>
    app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO idempotency_keys (store_id, idempotency_key, method, path, fingerprint, state, locked_until, claimed_by, expires_at)
        VALUES (${storeId}, ${key}, 'PUT', ${path}, ${fingerprint}, 'in_flight', now() + interval '60 seconds', ${owner},
          now() + interval '1 day')`
    }))

  const put = (apiKey: string, path: string, key: string) =>
    app.call("PUT", path, { key: apiKey, body, headers: { "idempotency-key": key } })

  const scene = async () => {
    const seed = await app.seedStore({ scopes: ["pricing:read", "pricing:write"] })
    const { id } = await createCustomiser(app, seed.storeId)
    return { seed, path: `/api/v3/customisers/${id}/pricing` }
  }

  it("runs a retry at once when the key's claimer is gone, and replays it afterwards", async () => {
    const { seed, path } = await scene()
    await leaveClaim(seed.storeId, "crashed-1", path, "a-process-that-was-killed")
    const retry = await put(seed.key, path, "crashed-1")
    expect(retry.status).toBe(200)
    expect(retry.headers.get("idempotency-replay")).toBeNull()
    const again = await put(seed.key, path, "crashed-1")
    expect(again.status).toBe(200)
    expect(again.headers.get("idempotency-replay")).toBe("true")
  })

  it("keeps the lease of a claim that names no owner (made before owners were recorded)", async () => {
    const { seed, path } = await scene()
    await leaveClaim(seed.storeId, "unowned-1", path, null)
    const retry = await put(seed.key, path, "unowned-1")
    expect(retry.status).toBe(409)
    expect(retry.body.code).toBe("idempotency_key_in_flight")
  })

  it("keeps a claim of this very process in flight", async () => {
    const { seed, path } = await scene()
    const ownId = await app.run(Effect.map(Effect.service(ClaimOwner), (owner) => owner.id))
    await leaveClaim(seed.storeId, "own-1", path, ownId)
    const retry = await put(seed.key, path, "own-1")
    expect(retry.status).toBe(409)
    expect(retry.body.code).toBe("idempotency_key_in_flight")
  })

  it.runIf(variant.name === "postgres")("keeps a claim of another live process in flight, and takes it over once that process is gone", async () => {
    if (db.config._tag !== "Postgres") throw new Error("a PostgreSQL database is needed")
    // Another process on the same database: its own pool, its own owner lock.
    const other = ManagedRuntime.make(layerSessionLockOwner.pipe(Layer.provide(layerPostgres(db.config.url, { maxConnections: 2 }))))
    const otherId = await other.runPromise(Effect.map(Effect.service(ClaimOwner), (owner) => owner.id))
    const { seed, path } = await scene()
    await leaveClaim(seed.storeId, "alive-1", path, otherId)
    const whileAlive = await put(seed.key, path, "alive-1")
    expect(whileAlive.status).toBe(409)
    expect(whileAlive.body.code).toBe("idempotency_key_in_flight")
    // Its sessions end, as a killed process's do.
    await other.dispose()
    const afterwards = await put(seed.key, path, "alive-1")
    expect(afterwards.status).toBe(200)
    expect(afterwards.headers.get("idempotency-replay")).toBeNull()
  })

  it.runIf(variant.name === "postgres")("keeps a live process's claims its own after its lock's session is lost: the lock is taken again", async () => {
    if (db.config._tag !== "Postgres") throw new Error("a PostgreSQL database is needed")
    const other = ManagedRuntime.make(layerSessionLockOwner.pipe(Layer.provide(layerPostgres(db.config.url, { maxConnections: 2 }))))
    const otherId = await other.runPromise(Effect.map(Effect.service(ClaimOwner), (owner) => owner.id))
    const isGone = () => app.run(Effect.flatMap(Effect.service(ClaimOwner), (owner) => owner.isGone(otherId)))
    // What isGone says once it says `expected`, or after 15 s.
    const until = async (expected: boolean) => {
      const deadline = Date.now() + 15_000
      for (;;) {
        const gone = await isGone()
        if (gone === expected || Date.now() > deadline) return gone
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    expect(await isGone()).toBe(false)
    // The database ends the sessions holding owner locks (a restart, a cut connection): the locks go with them.
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
    }))
    expect(await until(true)).toBe(true)
    // The other process is alive: it takes its lock again on a new session, and its claims are its own again.
    expect(await until(false)).toBe(false)
    // Its sessions end with it (the server notices a closed session a moment after the client closes it).
    await other.dispose()
    expect(await until(true)).toBe(true)
  })
})
