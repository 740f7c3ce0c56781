import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCustomiser, databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"

const SCOPES = ["pricing:read", "pricing:write"]
const HOUR = 60 * 60 * 1000

describe.each(databaseVariants())("Idempotency-Key rules ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  const clock = adjustableClock()

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 }, {}, { clock })
    await app.call("GET", "/healthz")
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const write = (method: "PUT" | "PATCH", key: string, customiserId: number, body: unknown, idempotencyKey: string) =>
    app.call(method, `/api/v3/customisers/${customiserId}/pricing`, {
      key,
      body,
      headers: {
        "idempotency-key": idempotencyKey,
        "content-type": method === "PATCH" ? "application/merge-patch+json" : "application/json"
      }
    })

  it("answers 409 idempotency_key_conflict for a key reused with another method, same path and body", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(app, seed.storeId)
    const body = { sizes: [] }
    const put = await write("PUT", seed.key, id, body, "method-1")
    expect(put.status).toBe(200)
    const patch = await write("PATCH", seed.key, id, body, "method-1")
    expect(patch.status).toBe(409)
    expect(patch.body.code).toBe("idempotency_key_conflict")
    expect(patch.headers.get("idempotency-replay")).toBeNull()
    // The same request again is still a replay of the first.
    expect((await write("PUT", seed.key, id, body, "method-1")).headers.get("idempotency-replay")).toBe("true")
  })

  it("answers 409 idempotency_key_conflict for a key reused on another path with the same method and body", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const first = await createCustomiser(app, seed.storeId)
    const second = await createCustomiser(app, seed.storeId)
    const body = { sizes: [] }
    expect((await write("PUT", seed.key, first.id, body, "path-1")).status).toBe(200)
    const elsewhere = await write("PUT", seed.key, second.id, body, "path-1")
    expect(elsewhere.status).toBe(409)
    expect(elsewhere.body.code).toBe("idempotency_key_conflict")
    expect(elsewhere.headers.get("idempotency-replay")).toBeNull()
  })

  it("keeps a key for 24 hours from its first use and forgets it from then on", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(app, seed.storeId)
    const first = await write("PUT", seed.key, id, { sizes: [] }, "day-1")
    expect(first.status).toBe(200)
    const usedAt = clock.now()

    clock.advance(usedAt + 24 * HOUR - 1 - clock.now())
    expect((await write("PUT", seed.key, id, { sizes: [] }, "day-1")).headers.get("idempotency-replay")).toBe("true")
    const otherBody = await write("PUT", seed.key, id, { price_lists: [] }, "day-1")
    expect(otherBody.status).toBe(409)
    expect(otherBody.body.code).toBe("idempotency_key_conflict")

    clock.advance(1)
    const reused = await write("PUT", seed.key, id, { price_lists: [] }, "day-1")
    expect(reused.status).toBe(200)
    expect(reused.headers.get("idempotency-replay")).toBeNull()
    // The key now belongs to the new request, for another 24 hours.
    expect((await write("PUT", seed.key, id, { price_lists: [] }, "day-1")).headers.get("idempotency-replay")).toBe("true")
  })
})
