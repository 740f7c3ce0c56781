import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCustomiser, databaseVariants, startApp, type TestDatabase, type TestResponse } from "@signcraft/test-kit"

const responses = [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "shopper@example.com" }]

const expectCursorRefused = (res: TestResponse, where: string) => {
  expect(res.status, where).toBe(422)
  expect(res.body.code, where).toBe("invalid_parameter")
  expect(res.body.errors, where).toEqual([expect.objectContaining({ parameter: "cursor", code: "invalid_cursor" })])
}

/** The `cursor` of a page's `links.next`. */
const cursorOf = (res: TestResponse): string => {
  expect(res.status).toBe(200)
  expect(res.body.pagination.has_more).toBe(true)
  const cursor = new URL(res.body.links.next).searchParams.get("cursor")
  if (cursor === null) throw new Error("links.next carries no cursor")
  return cursor
}

// Every paged v3 collection; the first test holds this list to the OpenAPI document, so a new
// collection is refused cursors of every other one from the day it is added.
const COLLECTIONS = [
  "/api/v3/customisers",
  "/api/v3/events",
  "/api/v3/orders",
  "/api/v3/quotes",
  "/api/v3/webhook-subscriptions",
  "/api/v3/webhook-subscriptions/{webhook_id}/deliveries"
]

describe.each(databaseVariants())("v3 cursors are bound to their collection, Store and filters ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 })
    await app.call("GET", "/healthz")
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  /** A Store with two customisers, two orders, two form:submitted subscriptions and two quotes, each queued to both. */
  const seed = async () => {
    const store = await app.seedStore("wildcard")
    const customisers = [await createCustomiser(app, store.storeId), await createCustomiser(app, store.storeId)]
    const subscriptions: Array<number> = []
    for (const path of ["/a", "/b"]) {
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", {
        key: store.key,
        body: { topic: "form:submitted", url: `http://127.0.0.1:9${path}` }
      })
      expect(created.status).toBe(201)
      subscriptions.push(created.body.data.id)
    }
    const imported = await app.operator("POST", `/stores/${store.storeId}/orders/import`, {
      orders: [1, 2].map((n) => ({ created_at: `2026-01-0${n}T10:00:00Z`, total_amount: 100 * n, currency: "USD" }))
    })
    expect(imported.status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const submitted = await app.call("POST", `/storefront/v1/customisers/${customisers[0]?.id}/form-submissions`, { body: { responses } })
      expect(submitted.status).toBe(201)
    }
    return { ...store, subscriptions }
  }

  it("covers every v3 collection that takes a cursor", async () => {
    const document = await app.call("GET", "/api/v3/openapi.json")
    const paged = Object.entries(document.body.paths as Record<string, Record<string, { parameters?: ReadonlyArray<{ name: string; in: string }> }>>)
      .filter(([, operations]) => operations.get?.parameters?.some((parameter) => parameter.in === "query" && parameter.name === "cursor"))
      .map(([path]) => path)
    expect(paged.sort()).toEqual([...COLLECTIONS].sort())
  })

  it("refuses a cursor replayed on another collection, another Store or other filters, and follows it where it was made", async () => {
    const a = await seed()
    const b = await seed()
    const [a1, a2] = a.subscriptions
    const collections = (s: { readonly subscriptions: ReadonlyArray<number> }) =>
      COLLECTIONS.map((path) => path.replace("{webhook_id}", String(s.subscriptions[0])))
    for (const made of collections(a)) {
      const cursor = cursorOf(await app.call("GET", `${made}?limit=1`, { key: a.key }))
      const followed = await app.call("GET", `${made}?limit=1&cursor=${cursor}`, { key: a.key })
      expect(followed.status, made).toBe(200)
      expect(followed.body.data, made).toHaveLength(1)
      for (const other of collections(a).filter((path) => path !== made)) {
        expectCursorRefused(await app.call("GET", `${other}?limit=1&cursor=${cursor}`, { key: a.key }), `${made} on ${other}`)
      }
      for (const other of collections(b)) {
        expectCursorRefused(await app.call("GET", `${other}?limit=1&cursor=${cursor}`, { key: b.key }), `${made} on Store B's ${other}`)
      }
    }
    const deliveries = cursorOf(await app.call("GET", `/api/v3/webhook-subscriptions/${a1}/deliveries?limit=1`, { key: a.key }))
    for (const other of [`${a2}/deliveries?limit=1`, `${a1}/deliveries?limit=1&status=pending`]) {
      expectCursorRefused(await app.call("GET", `/api/v3/webhook-subscriptions/${other}&cursor=${deliveries}`, { key: a.key }), other)
    }
  })

  it("refuses a cursor whose position was altered", async () => {
    const a = await seed()
    const cursor = cursorOf(await app.call("GET", "/api/v3/customisers?limit=1", { key: a.key }))
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    const altered = Buffer.from(JSON.stringify({ ...decoded, a: String(Number(decoded.a) + 1) })).toString("base64url")
    expectCursorRefused(await app.call("GET", `/api/v3/customisers?limit=1&cursor=${altered}`, { key: a.key }), "altered")
  })
})
