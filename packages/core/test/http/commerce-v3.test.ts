import { canonicalFingerprint } from "../../src/http/middleware/body.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"

type App = TestApp

const CALLBACK_URL = "http://127.0.0.1:9/never-called"

describe.each(databaseVariants())("v3 products and orders ($name database)", (variant) => {
  let db: TestDatabase
  let app: App

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  /** A Store with a customiser, an enabled integration and a key for both writes. */
  const seed = async (scopes: ReadonlyArray<string> = ["orders:write", "products:write"], currency = "USD") => {
    const store = await app.seedStore({ scopes }, { currency })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: CALLBACK_URL })
    return { ...store, customiserId, integrationId: integration.body.id as number }
  }

  const product = (integrationId: number, extra: Record<string, unknown> = {}) => ({
    integration_id: integrationId,
    store_product_id: "sku-1",
    title: "Custom neon",
    price_amount: 12500,
    currency: "USD",
    width_cm: 60,
    height_cm: 20.5,
    customisations: [{ key: "text", label: "Text", value: "Hello" }],
    artwork: { preview_image_url: "https://cdn.example.com/p.png" },
    ...extra
  })

  const createProduct = async (s: Awaited<ReturnType<typeof seed>>, extra: Record<string, unknown> = {}) => {
    const res = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId, extra) })
    expect(res.status).toBe(201)
    return res.body.data.id as number
  }

  const order = (integrationId: number, productId: number, extra: Record<string, unknown> = {}) => ({
    integration_id: integrationId,
    store_order_id: "A-1",
    store_order_number: "1001",
    total_amount: 25000,
    currency: "USD",
    shipping_method: "Standard",
    line_items: [{ product_id: productId, quantity: 2 }],
    ...extra
  })

  const countOrders = async (storeId: number) =>
    (await app.query((sql) => sql<{ id: number }>`SELECT id FROM orders WHERE store_id = ${storeId}`)).length
  const countEvents = async (storeId: number, topic: string) =>
    (await app.query((sql) => sql<{ id: number }>`SELECT id FROM events WHERE store_id = ${storeId} AND topic = ${topic}`)).length

  describe("POST /api/v3/customisers/{customiser_id}/products", () => {
    it("creates a product: 201, integer data.id, the stored fields", async () => {
      const s = await seed()
      const res = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId) })
      expect(res.status).toBe(201)
      expect(Number.isInteger(res.body.data.id)).toBe(true)
      expect(res.body.data).toMatchObject({
        object: "product",
        customiser_id: s.customiserId,
        integration_id: s.integrationId,
        store_product_id: "sku-1",
        title: "Custom neon",
        price_amount: 12500,
        currency: "USD",
        width_cm: 60,
        height_cm: 20.5,
        customisations: [{ key: "text", label: "Text", value: "Hello" }],
        artwork: { preview_image_url: "https://cdn.example.com/p.png" }
      })
      expect(res.body.links.self).toBe(`http://localhost:8080/api/v3/products/${res.body.data.id}`)
      expect(res.body.meta).toMatchObject({ api_version: "v3", request_id: expect.stringMatching(/^req_/) })
      // A product the integrator writes itself is not announced back to it.
      expect(await countEvents(s.storeId, "product:created")).toBe(0)
    })

    it("needs products:write", async () => {
      const s = await seed(["orders:write"])
      const res = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId) })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ code: "insufficient_scope", required_scopes: ["products:write"] })
      expect((await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { body: product(s.integrationId) })).status).toBe(401)
    })

    it("answers 404 for another Store's or an unknown customiser, 422 for another Store's integration", async () => {
      const s = await seed()
      const other = await seed()
      for (const path of [`/api/v3/customisers/${other.customiserId}/products`, "/api/v3/customisers/999999/products", "/api/v3/customisers/x/products"]) {
        const res = await app.call("POST", path, { key: s.key, body: product(s.integrationId) })
        expect(res.status, path).toBe(404)
        expect(res.body.code).toBe("not_found")
      }
      const crossed = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(other.integrationId) })
      expect(crossed.status).toBe(422)
      expect(crossed.body.errors).toEqual([expect.objectContaining({ pointer: "/integration_id", code: "unknown_integration" })])
    })

    it("validates the body with pointers", async () => {
      const s = await seed()
      const res = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, {
        key: s.key,
        body: { integration_id: s.integrationId, title: "", price_amount: 1.5, currency: "usd", artwork: { svg_url: "nope" } }
      })
      expect(res.status).toBe(422)
      expect(res.body.code).toBe("validation_failed")
      const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer)
      expect(pointers).toEqual(expect.arrayContaining(["/title", "/price_amount", "/currency", "/artwork/svg_url"]))
    })
  })

  describe("POST /api/v3/orders", () => {
    it("accepts an order: 201, status received, prices captured from the products, order:created queued", async () => {
      const s = await seed()
      const a = await createProduct(s)
      const b = await createProduct(s, { price_amount: 999, store_product_id: "sku-2", title: "Small" })
      const res = await app.call("POST", "/api/v3/orders", {
        key: s.key,
        body: order(s.integrationId, a, {
          line_items: [{ product_id: a, quantity: 2 }, { product_id: b, quantity: 1 }],
          billing_address: { first_name: "Ada", last_name: "Lovelace", company: null, address_1: "1 Road", city: "London", country: "GB" }
        })
      })
      expect(res.status).toBe(201)
      expect(res.body.data).toMatchObject({
        object: "order",
        status: "received",
        integration_id: s.integrationId,
        store_order_id: "A-1",
        store_order_number: "1001",
        total_amount: 25000,
        currency: "USD",
        shipping_method: "Standard",
        billing_address: { first_name: "Ada", city: "London" },
        line_items: [
          { product_id: a, quantity: 2, unit_price_amount: 12500, currency: "USD", title: "Custom neon" },
          { product_id: b, quantity: 1, unit_price_amount: 999, currency: "USD", title: "Small" }
        ]
      })
      expect(Number.isInteger(res.body.data.id)).toBe(true)
      const events = await app.query((sql) =>
        sql<{ payload: unknown }>`SELECT body::jsonb AS payload FROM events WHERE store_id = ${s.storeId} AND topic = 'order:created'`
      )
      expect(events).toHaveLength(1)
      const payload = typeof events[0]?.payload === "string" ? JSON.parse(events[0].payload) : events[0]?.payload
      expect(payload.order).toMatchObject({ order_id: res.body.data.id, app_total: 2 * 12500 + 999, order_total: 25000 })
      expect(payload.order.products.map((p: { product_id: number }) => p.product_id)).toEqual([a, b])
    })

    it("defaults the currency to the Store's and refuses line items priced in another currency", async () => {
      const s = await seed(["orders:write", "products:write"], "EUR")
      const eur = await createProduct(s, { currency: "EUR" })
      const usd = await createProduct(s, { currency: "USD" })
      const { currency: _omitted, ...noCurrency } = order(s.integrationId, eur)
      const res = await app.call("POST", "/api/v3/orders", { key: s.key, body: noCurrency })
      expect(res.status).toBe(201)
      expect(res.body.data.currency).toBe("EUR")
      const mixed = await app.call("POST", "/api/v3/orders", {
        key: s.key,
        body: order(s.integrationId, eur, { currency: "EUR", line_items: [{ product_id: eur, quantity: 1 }, { product_id: usd, quantity: 1 }] })
      })
      expect(mixed.status).toBe(422)
      expect(mixed.body.errors).toEqual([expect.objectContaining({ pointer: "/line_items/1/product_id", code: "currency_mismatch" })])
    })

    it("refuses a disabled, unknown or another Store's integration with 422 at /integration_id", async () => {
      const s = await seed()
      const other = await seed()
      const p = await createProduct(s)
      const disabled = await app.operator("POST", `/stores/${s.storeId}/integrations`, { create_product_url: CALLBACK_URL, enabled: false })
      for (const [id, code] of [[disabled.body.id, "integration_disabled"], [other.integrationId, "unknown_integration"], [999999, "unknown_integration"]]) {
        const res = await app.call("POST", "/api/v3/orders", { key: s.key, body: order(id, p) })
        expect(res.status).toBe(422)
        expect(res.body.errors).toEqual([expect.objectContaining({ pointer: "/integration_id", code })])
      }
      // Disabling an integration stops its orders; enabling it again lets them through.
      await app.operator("PATCH", `/integrations/${s.integrationId}`, { enabled: false })
      expect((await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p) })).status).toBe(422)
      await app.operator("PATCH", `/integrations/${s.integrationId}`, { enabled: true })
      expect((await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p) })).status).toBe(201)
    })

    it("refuses line items that are not v3 products of the Store, with a pointer each, and records nothing", async () => {
      const s = await seed(["orders:write", "products:write", "analytics:read"])
      const other = await seed()
      const mine = await createProduct(s)
      const theirs = await createProduct(other)
      await app.operator("POST", `/stores/${s.storeId}/products/import`, {
        products: [{ created_at: "2026-01-01T00:00:00Z", title: "cache", price_amount: 1, currency: "USD", legacy: true }]
      })
      const [legacyRow] = await app.query((sql) =>
        sql<{ id: number }>`SELECT id FROM products WHERE store_id = ${s.storeId} AND kind = 'legacy'`
      )
      const res = await app.call("POST", "/api/v3/orders", {
        key: s.key,
        body: order(s.integrationId, mine, {
          line_items: [
            { product_id: mine, quantity: 1 },
            { product_id: theirs, quantity: 1 },
            { product_id: 999999, quantity: 1 },
            { product_id: Number(legacyRow?.id), quantity: 1 }
          ]
        })
      })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual([
        expect.objectContaining({ pointer: "/line_items/1/product_id", code: "unknown_product" }),
        expect.objectContaining({ pointer: "/line_items/2/product_id", code: "unknown_product" }),
        expect.objectContaining({ pointer: "/line_items/3/product_id", code: "unknown_product" })
      ])
      expect(await countOrders(s.storeId)).toBe(0)
      expect(await countEvents(s.storeId, "order:created")).toBe(0)
    })

    it("validates the body: required fields, types, quantities", async () => {
      const s = await seed()
      const res = await app.call("POST", "/api/v3/orders", {
        key: s.key,
        body: { total_amount: -1, currency: "dollars", line_items: [{ product_id: 0, quantity: 0 }] }
      })
      expect(res.status).toBe(422)
      const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer)
      expect(pointers).toEqual(expect.arrayContaining(["/integration_id", "/total_amount", "/currency", "/line_items/0/product_id", "/line_items/0/quantity"]))
    })

    it("needs orders:write", async () => {
      const s = await seed(["products:write"])
      const res = await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, 1) })
      expect(res.status).toBe(403)
      expect(res.body.required_scopes).toEqual(["orders:write"])
    })
  })

  describe("Idempotency-Key on v3 writes", () => {
    it("replays the first answer for the same key and body, with Idempotency-Replay: true, writing once", async () => {
      const s = await seed()
      const p = await createProduct(s)
      const headers = { "idempotency-key": "order-key-1" }
      const first = await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p), headers })
      expect(first.status).toBe(201)
      expect(first.headers.get("idempotency-replay")).toBeNull()
      // Same body with keys in another order is the same request.
      const reordered = Object.fromEntries(Object.entries(order(s.integrationId, p)).reverse())
      const again = await app.call("POST", "/api/v3/orders", { key: s.key, body: reordered, headers })
      expect(again.status).toBe(201)
      expect(again.headers.get("idempotency-replay")).toBe("true")
      expect(again.headers.get("content-type")).toContain("application/json")
      expect(again.body).toEqual(first.body)
      expect(await countOrders(s.storeId)).toBe(1)
      expect(await countEvents(s.storeId, "order:created")).toBe(1)
      // Without a key every call is a new order.
      expect((await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p) })).status).toBe(201)
      expect(await countOrders(s.storeId)).toBe(2)
    })

    it("answers 409 idempotency_key_conflict for the same key with another body", async () => {
      const s = await seed()
      const p = await createProduct(s)
      const headers = { "idempotency-key": "order-key-2" }
      expect((await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p), headers })).status).toBe(201)
      const res = await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p, { total_amount: 1 }), headers })
      expect(res.status).toBe(409)
      expect(res.headers.get("content-type")).toContain("application/problem+json")
      expect(res.body.code).toBe("idempotency_key_conflict")
      // The same key on the other write endpoint is another request too.
      const elsewhere = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId), headers })
      expect(elsewhere.status).toBe(409)
      expect(await countOrders(s.storeId)).toBe(1)
    })

    it("answers 409 idempotency_key_in_flight with retry_after while the first request runs", async () => {
      const s = await seed()
      const p = await createProduct(s)
      const body = order(s.integrationId, p)
      // The first request with this key is still running (claimed, not completed).
      await app.query((sql) => sql`
        INSERT INTO idempotency_keys (store_id, idempotency_key, method, path, fingerprint, state, locked_until, expires_at)
        VALUES (${s.storeId}, 'order-key-3', 'POST', '/api/v3/orders',
          ${canonicalFingerprint(new TextEncoder().encode(JSON.stringify(body)))}, 'in_flight',
          now() + interval '30 seconds', now() + interval '1 day')`)
      const res = await app.call("POST", "/api/v3/orders", { key: s.key, body, headers: { "idempotency-key": "order-key-3" } })
      expect(res.status).toBe(409)
      expect(res.body.code).toBe("idempotency_key_in_flight")
      expect(res.body.retry_after).toBeGreaterThanOrEqual(1)
      expect(res.headers.get("retry-after")).toBe(String(res.body.retry_after))
      expect(await countOrders(s.storeId)).toBe(0)
    })

    it("runs the write once for a burst of same-key requests", async () => {
      const s = await seed()
      const p = await createProduct(s)
      const headers = { "idempotency-key": "order-key-burst" }
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p), headers }))
      )
      const fresh = answers.filter((a) => a.status === 201 && a.headers.get("idempotency-replay") === null)
      expect(fresh).toHaveLength(1)
      for (const a of answers) {
        if (a.status === 201) expect(a.body).toEqual(fresh[0]?.body)
        else expect([409]).toContain(a.status)
      }
      expect(await countOrders(s.storeId)).toBe(1)
    })

    it("does not keep a refused (422) write's key from being used again with a corrected body", async () => {
      const s = await seed()
      const p = await createProduct(s)
      const headers = { "idempotency-key": "product-key-1" }
      const bad = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: { title: "" }, headers })
      expect(bad.status).toBe(422)
      const first = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId), headers })
      expect(first.status).toBe(201)
      const replay = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId), headers })
      expect(replay.headers.get("idempotency-replay")).toBe("true")
      expect(replay.body.data.id).toBe(first.body.data.id)
      expect(p).not.toBe(first.body.data.id)
    })

    it("refuses keys longer than 255 characters", async () => {
      const s = await seed()
      const res = await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, 1), headers: { "idempotency-key": "k".repeat(256) } })
      expect(res.status).toBe(400)
    })
  })

  describe("reading back what was written", () => {
    const readScopes = ["orders:write", "products:write", "orders:read", "products:read"]

    it("a created product's links.self reads it back with products:read; other Stores, legacy rows and missing ids are 404", async () => {
      const s = await seed(readScopes)
      const created = await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, { key: s.key, body: product(s.integrationId) })
      expect(created.status).toBe(201)
      const self = created.body.links.self as string
      expect(self).toBe(`http://localhost:8080/api/v3/products/${created.body.data.id}`)
      const read = await app.call("GET", new URL(self).pathname, { key: s.key })
      expect(read.status).toBe(200)
      expect(read.body.data).toEqual(created.body.data)
      expect(read.body.links.self).toBe(self)

      const writerOnly = await seed(["products:write"])
      const refused = await app.call("GET", `/api/v3/products/${created.body.data.id}`, { key: writerOnly.key })
      expect(refused.status).toBe(403)
      expect(refused.body.required_scopes).toEqual(["products:read"])

      const other = await seed(readScopes)
      expect((await app.call("GET", `/api/v3/products/${created.body.data.id}`, { key: other.key })).status).toBe(404)
      expect((await app.call("GET", "/api/v3/products/999999999", { key: s.key })).body.code).toBe("not_found")
      expect((await app.call("GET", "/api/v3/products/abc", { key: s.key })).status).toBe(404)

      // A legacy product-cache row (unversioned sync) is never a v3 product.
      const [legacy] = await app.query((sql) =>
        sql<{ id: number }>`INSERT INTO products (store_id, kind, title, price_amount, currency, details)
          VALUES (${s.storeId}, 'legacy', 'cache row', 100, 'USD', '{}'::jsonb) RETURNING id`
      )
      expect((await app.call("GET", `/api/v3/products/${legacy?.id}`, { key: s.key })).status).toBe(404)
    })

    it("lists the Store's orders newest first across pages, and a created order's links.self reads it back", async () => {
      const s = await seed(readScopes)
      const other = await seed(readScopes)
      const otherProduct = await createProduct(other)
      await app.call("POST", "/api/v3/orders", { key: other.key, body: order(other.integrationId, otherProduct) })
      const p = await createProduct(s)
      const created: Array<{ data: { id: number }; links: { self: string } }> = []
      for (const number of ["1001", "1002", "1003"]) {
        const res = await app.call("POST", "/api/v3/orders", { key: s.key, body: order(s.integrationId, p, { store_order_number: number }) })
        expect(res.status).toBe(201)
        created.push(res.body)
      }
      for (const res of created) {
        expect(res.links.self).toBe(`http://localhost:8080/api/v3/orders/${res.data.id}`)
        const read = await app.call("GET", new URL(res.links.self).pathname, { key: s.key })
        expect(read.status).toBe(200)
        expect(read.body.data).toEqual(res.data)
      }

      const first = await app.call("GET", "/api/v3/orders?limit=2", { key: s.key })
      expect(first.status).toBe(200)
      const newestFirst = created.map((res) => res.data.id).reverse()
      expect(first.body.data.map((o: { id: number }) => o.id)).toEqual(newestFirst.slice(0, 2))
      expect(first.body.pagination.has_more).toBe(true)
      const second = await app.call("GET", new URL(first.body.links.next).pathname + new URL(first.body.links.next).search, { key: s.key })
      expect(second.body.data.map((o: { id: number }) => o.id)).toEqual(newestFirst.slice(2))
      expect(second.body.pagination.has_more).toBe(false)

      // Another Store's order is not found, and the list needs orders:read.
      expect((await app.call("GET", `/api/v3/orders/${created[0]?.data.id}`, { key: other.key })).status).toBe(404)
      const writer = await seed(["orders:write"])
      const refused = await app.call("GET", "/api/v3/orders", { key: writer.key })
      expect(refused.status).toBe(403)
      expect(refused.body.required_scopes).toEqual(["orders:read"])
      // A cursor of this Store's list is refused for another Store.
      const foreign = await app.call("GET", new URL(first.body.links.next).pathname + new URL(first.body.links.next).search, { key: other.key })
      expect(foreign.status).toBe(422)
    })
  })
})
