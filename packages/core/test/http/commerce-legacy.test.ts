import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"
import { startIntegrator } from "@signcraft/test-kit/integrator"

type App = TestApp
type Integrator = Awaited<ReturnType<typeof startIntegrator>>

const expectDeprecated = (res: { headers: Headers }) => {
  expect(res.headers.get("deprecation")).toBe("@1784678400")
  expect(res.headers.get("sunset")).toBe("Fri, 22 Jan 2027 00:00:00 GMT")
  expect(res.headers.get("link")).toContain("rel=deprecation")
}

const expectLegacyError = (res: { status: number; headers: Headers; body: Record<string, unknown> }, status: number) => {
  expect(res.status).toBe(status)
  expect(res.body).toHaveProperty("message")
  expect(res.body).toHaveProperty("errors")
  expect(res.body).not.toHaveProperty("type")
  expectDeprecated(res)
}

describe.each(databaseVariants())("previous-generation orders and products ($name database)", (variant) => {
  let db: TestDatabase
  let app: App
  let integrator: Integrator

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS)
    integrator = await startIntegrator()
  })
  afterAll(async () => {
    await integrator.close()
    await app.dispose()
    await db.cleanup()
  })

  /** A Store with a customiser, an integration pointing at the receiver, and one accepted design. */
  const seed = async (grant: { scopes: ReadonlyArray<string> } | "wildcard" = "wildcard") => {
    const store = await app.seedStore(grant)
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: integrator.url })
    integrator.useSecret(integration.body.signing_secret)
    integrator.answer("external_id")
    const design = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, {
      body: { integration_id: integration.body.id, title: "Neon", price: 5000, currency: "USD" }
    })
    expect(design.status).toBe(201)
    return {
      ...store,
      customiserId,
      integrationId: integration.body.id as number,
      productId: design.body.product_id as number,
      externalId: design.body.external_id as string
    }
  }

  const v2Order = (s: { integrationId: number; externalId: string }, extra: Record<string, unknown> = {}) => ({
    integration_id: s.integrationId,
    external_id: "ext-1",
    external_order_number: "#1",
    currency: "USD",
    shipping_line: "Post",
    billing_address: { first_name: "A", last_name: "B", email: "a@b.c", phone: null, address_1: "x", address_2: null, city: "c", province: "p", postcode: "1", country: "GB" },
    shipping_address: { first_name: "A", last_name: "B", address_1: "x", city: "c", province: "p", postcode: "1", country: "GB" },
    products: [{ external_id: s.externalId, quantity: 3, price: 5000 }],
    ...extra
  })

  const storedOrders = (storeId: number) =>
    app.query((sql) => sql<{ source: string; total_amount: unknown; currency: string; shipping_address: unknown; customer: unknown; line_items: unknown; store_order_id: string }>`
      SELECT source, total_amount, currency, shipping_address, customer, line_items, store_order_id
      FROM orders WHERE store_id = ${storeId} ORDER BY id`)
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value)

  describe("POST /api/v2/orders", () => {
    it("records the order in the v3 model and answers the v2 order object with the deprecation headers", async () => {
      const s = await seed()
      const res = await app.call("POST", "/api/v2/orders", { key: s.key, body: v2Order(s) })
      expect(res.status).toBe(200)
      expect(res.body.order).toMatchObject({ external_id: "ext-1", external_order_number: "#1", currency: "USD", shipping_line: "Post" })
      expect(res.body.order.products).toEqual([{ external_id: s.externalId, quantity: 3, price: 5000 }])
      expectDeprecated(res)
      const [stored] = await storedOrders(s.storeId)
      expect(stored?.source).toBe("v2")
      expect(Number(stored?.total_amount)).toBe(15000)
      expect(json(stored?.line_items)).toEqual([
        { product_id: s.productId, quantity: 3, unit_price_amount: 5000, currency: "USD", title: "Neon" }
      ])
      expect(json(stored?.shipping_address)).toMatchObject({ first_name: "A", postcode: "1" })
      const events = await app.query((sql) => sql<{ id: number }>`SELECT id FROM events WHERE store_id = ${s.storeId} AND topic = 'order:created'`)
      expect(events).toHaveLength(1)
    })

    it("accepts only external_ids returned for product:created in this Store", async () => {
      const s = await seed()
      const other = await seed()
      await app.call("POST", `/api/v3/customisers/${s.customiserId}/products`, {
        key: s.key,
        body: { integration_id: s.integrationId, store_product_id: "sku-9", title: "t", price_amount: 1, currency: "USD" }
      })
      for (const externalId of [other.externalId, "sku-9", "never-returned"]) {
        const res = await app.call("POST", "/api/v2/orders", { key: s.key, body: v2Order({ ...s, externalId }) })
        expectLegacyError(res, 422)
        expect(res.body.errors).toHaveProperty(["products.0.external_id"])
      }
      expect(await storedOrders(s.storeId)).toHaveLength(0)
    })

    it("refuses a disabled or another Store's integration in the v2 error format", async () => {
      const s = await seed()
      const other = await seed()
      const foreign = await app.call("POST", "/api/v2/orders", { key: s.key, body: v2Order(s, { integration_id: other.integrationId }) })
      expectLegacyError(foreign, 422)
      expect(foreign.body.errors).toHaveProperty("integration_id")
      await app.operator("PATCH", `/integrations/${s.integrationId}`, { enabled: false })
      const disabled = await app.call("POST", "/api/v2/orders", { key: s.key, body: v2Order(s) })
      expectLegacyError(disabled, 422)
      expect(disabled.body.errors.integration_id).toHaveLength(1)
    })

    it("validates in the v2 error format, answers 401 and 403 in it too, and counts usage per key", async () => {
      const s = await seed()
      const invalid = await app.call("POST", "/api/v2/orders", { key: s.key, body: { integration_id: "x", products: [{}] } })
      expectLegacyError(invalid, 422)
      expect(Object.keys(invalid.body.errors)).toEqual(expect.arrayContaining(["integration_id", "external_id", "products.0.external_id"]))
      expectLegacyError(await app.call("POST", "/api/v2/orders", { body: v2Order(s) }), 401)
      const readOnly = await app.seedStore({ scopes: ["store:read"] })
      expectLegacyError(await app.call("POST", "/api/v2/orders", { key: readOnly.key, body: v2Order(s) }), 403)
      await app.call("POST", "/api/v2/orders", { key: s.key, body: v2Order(s) })
      const usage = await app.query((sql) =>
        sql<{ operation: string; count: unknown }>`SELECT operation, count FROM deprecated_usage WHERE api_key_id = ${s.keyId}`
      )
      expect(usage.map((u) => [u.operation, Number(u.count)])).toEqual([["POST /api/v2/orders", 2]])
    })
  })

  describe("unversioned POST /api/customisers/{customiser}/products and POST /api/orders", () => {
    const sync = (extra: Record<string, unknown> = {}) => ({
      product_id: "legacy-42",
      cart: { text: "Bar & Grill", font: { name: "Neon Script" }, colours: ["pink", "blue"] },
      price_breakdown: { total: 129.5 },
      custom_background_path: "https://cdn.example.com/bg.png",
      logo_original_path: null,
      product_type_paths: { letters: "https://cdn.example.com/l.svg" },
      ...extra
    })

    it("keeps a legacy product-cache row per product_id and answers {ok: true}", async () => {
      const s = await seed()
      const res = await app.call("POST", `/api/customisers/${s.customiserId}/products`, { key: s.key, body: sync() })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true })
      expectDeprecated(res)
      expect((await app.call("POST", `/api/customisers/${s.customiserId}/products`, { key: s.key, body: sync({ price_breakdown: { total: "99" } }) })).status).toBe(200)
      const rows = await app.query((sql) => sql<{ kind: string; title: string; price_amount: unknown; store_product_id: string; details: unknown }>`
        SELECT kind, title, price_amount, store_product_id, details FROM products WHERE store_id = ${s.storeId} AND kind = 'legacy'`)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ kind: "legacy", title: "Bar & Grill", store_product_id: "legacy-42" })
      expect(Number(rows[0]?.price_amount)).toBe(9900)
      const details = json(rows[0]?.details)
      expect(details.customisations).toEqual(expect.arrayContaining([
        { key: "font_name", label: "Font name", value: "Neon Script" },
        { key: "colours_2", label: "Colours 2", value: "blue" }
      ]))
      expect(details.artwork).toEqual({ custom_background_url: "https://cdn.example.com/bg.png" })
      // No event: the cache row is not a finished design.
      const events = await app.query((sql) => sql<{ id: number }>`SELECT id FROM events WHERE store_id = ${s.storeId} AND topic = 'product:created'`)
      expect(events).toHaveLength(1)
    })

    it("answers 404 for another Store's, unknown or non-numeric customisers, 422 for bad fields, in the legacy format", async () => {
      const s = await seed()
      const other = await seed()
      for (const customiser of [String(other.customiserId), "999999", "abc", "1e3"]) {
        expectLegacyError(await app.call("POST", `/api/customisers/${customiser}/products`, { key: s.key, body: sync() }), 404)
      }
      const bad = await app.call("POST", `/api/customisers/${s.customiserId}/products`, {
        key: s.key,
        body: sync({ price_breakdown: { total: 1.234 }, custom_background_path: "uploads/bg.png" })
      })
      expectLegacyError(bad, 422)
      expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(["price_breakdown.total"]))
    })

    it("records an unversioned order: major units to minor, name split, references resolved, {ok: true}", async () => {
      const s = await seed()
      await app.call("POST", `/api/customisers/${s.customiserId}/products`, { key: s.key, body: sync() })
      const res = await app.call("POST", "/api/orders", {
        key: s.key,
        body: {
          order_id: "9001",
          order_number: "R-9001",
          order_total: 258.99,
          order_currency: "usd",
          email: "buyer@example.com",
          products: ["legacy-42", s.externalId, "legacy-42"],
          shipping_address: { name: "Ludwig van Beethoven", phone: null, address1: "Bonngasse 20", address2: null, city: "Bonn", province: null, country: "DE", zip: "53111" },
          shipping_line: "DHL"
        }
      })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true })
      expectDeprecated(res)
      const [stored] = await storedOrders(s.storeId)
      expect(stored).toMatchObject({ source: "unversioned", currency: "USD", store_order_id: "9001" })
      expect(Number(stored?.total_amount)).toBe(25899)
      expect(json(stored?.shipping_address)).toMatchObject({ first_name: "Ludwig", last_name: "van Beethoven", address_1: "Bonngasse 20", postcode: "53111" })
      expect(json(stored?.customer)).toEqual({ email: "buyer@example.com" })
      const items = json(stored?.line_items) as Array<{ quantity: number; unit_price_amount: number }>
      expect(items.map((i) => [i.quantity, i.unit_price_amount])).toEqual([[2, 12950], [1, 5000]])
    })

    it("refuses unknown references and unconvertible totals", async () => {
      const s = await seed()
      const base = { order_id: "1", order_number: "1", order_total: 10, order_currency: "USD", products: [s.externalId] }
      const unknown = await app.call("POST", "/api/orders", { key: s.key, body: { ...base, products: ["nope"] } })
      expectLegacyError(unknown, 422)
      expect(unknown.body.errors).toHaveProperty(["products.0"])
      const fractional = await app.call("POST", "/api/orders", { key: s.key, body: { ...base, order_total: 10.5, order_currency: "JPY" } })
      expectLegacyError(fractional, 422)
      expect(fractional.body.errors).toHaveProperty("order_total")
      expect(await storedOrders(s.storeId)).toHaveLength(0)
    })

    it("refuses another Store's products, whether synced or announced there", async () => {
      const s = await seed()
      const other = await seed()
      await app.call("POST", `/api/customisers/${other.customiserId}/products`, { key: other.key, body: sync({ product_id: "theirs" }) })
      const base = { order_id: "1", order_number: "1", order_total: 10, order_currency: "USD" }
      for (const reference of ["theirs", other.externalId]) {
        const res = await app.call("POST", "/api/orders", { key: s.key, body: { ...base, products: [reference] } })
        expectLegacyError(res, 422)
        expect(res.body.errors).toHaveProperty(["products.0"])
      }
      expect(await storedOrders(s.storeId)).toHaveLength(0)
      // The same references are the other Store's own to order.
      const own = await app.call("POST", "/api/orders", { key: other.key, body: { ...base, products: ["theirs", other.externalId] } })
      expect(own.status).toBe(200)
    })

    it("records and announces the order of a Store with no integration, or only a disabled one", async () => {
      const store = await app.seedStore("wildcard")
      const customiserId = await app.seedCustomiser(store.storeId)
      const subscription = await app.call("POST", "/api/v3/webhook-subscriptions", {
        key: store.key,
        body: { topic: "order:created", url: integrator.url }
      })
      expect(subscription.status).toBe(201)
      await app.call("POST", `/api/customisers/${customiserId}/products`, { key: store.key, body: sync() })
      const body = { order_id: "7", order_number: "R-7", order_total: 129.5, order_currency: "USD", products: ["legacy-42"] }
      const res = await app.call("POST", "/api/orders", { key: store.key, body })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true })
      const disabled = await seed()
      await app.operator("PATCH", `/integrations/${disabled.integrationId}`, { enabled: false })
      const throughDisabled = await app.call("POST", "/api/orders", { key: disabled.key, body: { ...body, products: [disabled.externalId], order_total: 50 } })
      expect(throughDisabled.status).toBe(200)
      for (const s of [store, disabled]) {
        const stored = await app.query((sql) => sql<{ source: string; integration_id: unknown }>`
          SELECT source, integration_id FROM orders WHERE store_id = ${s.storeId}`)
        expect(stored).toEqual([{ source: "unversioned", integration_id: null }])
      }
      const queued = await app.query((sql) => sql<{ subscription_id: unknown }>`
        SELECT d.subscription_id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.store_id = ${store.storeId} AND e.topic = 'order:created'`)
      expect(queued.map((d) => Number(d.subscription_id))).toEqual([subscription.body.data.id])
    })
  })
})
