import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, TEST_SECRETS_KEY, type TestApp, type TestDatabase } from "@signcraft/test-kit"
import { startIntegrator } from "@signcraft/test-kit/integrator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

type App = TestApp
type Integrator = Awaited<ReturnType<typeof startIntegrator>>

const design = (integrationId: number, extra: Record<string, unknown> = {}) => ({
  integration_id: integrationId,
  title: "OPEN in pink neon",
  price: 24900,
  compare_price: 29900,
  currency: "USD",
  description: "Pink neon, 60 cm",
  customisations: [{ key: "text", label: "Text", value: "OPEN" }],
  product_image_url: "https://cdn.example.com/designs/open.png",
  ...extra
})

describe.each(databaseVariants())("custom-integration flow ($name database)", (variant) => {
  let db: TestDatabase
  let app: App
  let integrator: Integrator
  const logLines: Array<Readonly<Record<string, string | number>>> = []

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { ...GENEROUS_RATE_LIMITS, webhookRetryBaseMs: 20 }, {
      deliveryWorker: { pollIntervalMs: 20 },
      log: (line) => logLines.push(line)
    })
    integrator = await startIntegrator()
  })
  afterAll(async () => {
    await integrator.close()
    await app.dispose()
    await db.cleanup()
  })

  const seedIntegration = async (storeId: number, body: Record<string, unknown> = {}) => {
    const res = await app.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: integrator.url, ...body })
    expect(res.status).toBe(201)
    return res.body as { id: number; signing_secret: string; enabled: boolean; create_product_url: string }
  }

  it("design → signed callback → external_id → v3 order and v2 order referencing it", async () => {
    const store = await app.seedStore({ scopes: ["orders:write", "products:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await seedIntegration(store.storeId, { name: "My shop" })
    expect(integration).toMatchObject({ enabled: true, create_product_url: integrator.url })
    expect(integration.signing_secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/)
    integrator.useSecret(integration.signing_secret)
    integrator.answer("external_id")

    const before = integrator.calls.length
    const created = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(integration.id) })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ product_id: expect.any(Number), external_id: expect.stringMatching(/^shop_prod_/) })

    // The integrator got one signed product:created call carrying the design.
    expect(integrator.calls.length).toBe(before + 1)
    const call = integrator.calls[integrator.calls.length - 1]
    expect(call?.verified).toBe(true)
    expect(call?.headers["x-webhook-topic"]).toBe("product:created")
    expect(call?.headers["x-webhook-id"]).toMatch(/^evt_\d+$/)
    expect(call?.headers["x-webhook-timestamp"]).toMatch(/^\d+$/)
    expect(call?.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/)
    const delivered = JSON.parse(call?.rawBody ?? "{}")
    expect(delivered.product).toMatchObject({
      product_id: created.body.product_id,
      title: "OPEN in pink neon",
      price: 24900,
      compare_price: 29900,
      customiser_id: customiserId,
      product_image_url: "https://cdn.example.com/designs/open.png",
      uploads: [{ url: "https://cdn.example.com/designs/open.png", type: "product_image" }]
    })

    // product:created is queued for the Store's subscriptions, with the very body the integrator got.
    const events = await app.query((sql) =>
      sql<{ topic: string; payload: unknown }>`SELECT topic, body::jsonb AS payload FROM events WHERE store_id = ${store.storeId} ORDER BY id`
    )
    expect(events.map((e) => e.topic)).toEqual(["product:created"])
    const queued = typeof events[0]?.payload === "string" ? JSON.parse(events[0].payload) : events[0]?.payload
    expect(queued).toEqual(delivered)

    // v3 order referencing the design by product_id: price captured from the product.
    const v3 = await app.call("POST", "/api/v3/orders", {
      key: store.key,
      body: {
        integration_id: integration.id,
        store_order_id: "1001",
        store_order_number: "#1001",
        total_amount: 49800,
        currency: "USD",
        customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: null },
        line_items: [{ product_id: created.body.product_id, quantity: 2 }]
      }
    })
    expect(v3.status).toBe(201)
    expect(v3.body.data).toMatchObject({
      object: "order",
      status: "received",
      total_amount: 49800,
      currency: "USD",
      line_items: [{ product_id: created.body.product_id, quantity: 2, unit_price_amount: 24900, currency: "USD" }]
    })
    expect(v3.body.meta.request_id).toMatch(/^req_/)
    expect(v3.body.links.self).toBe(`http://localhost:8080/api/v3/orders/${v3.body.data.id}`)

    // v2 order referencing the design by the external_id the integrator returned.
    const v2 = await app.call("POST", "/api/v2/orders", {
      key: store.key,
      body: {
        integration_id: integration.id,
        external_id: "1002",
        external_order_number: "#1002",
        currency: "USD",
        shipping_line: "Express",
        customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com", phone: null },
        products: [{ external_id: created.body.external_id, quantity: 1, price: 24900 }]
      }
    })
    expect(v2.status).toBe(200)
    expect(v2.body).toEqual({
      order: {
        order_id: expect.any(Number),
        external_id: "1002",
        external_order_number: "#1002",
        currency: "USD",
        shipping_line: "Express",
        products: [{ external_id: created.body.external_id, quantity: 1, price: 24900 }]
      }
    })
    expect(v2.headers.get("deprecation")).toBe("@1784678400")

    // Both orders queued order:created with the product the integrator knows.
    const orderEvents = await app.query((sql) =>
      sql<{ payload: unknown }>`SELECT body::jsonb AS payload FROM events WHERE store_id = ${store.storeId} AND topic = 'order:created' ORDER BY id`
    )
    expect(orderEvents).toHaveLength(2)
    const payloads = orderEvents.map((e) => (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload))
    expect(payloads[0].order).toMatchObject({ external_id: "1001", order_total: 49800, app_total: 49800, currency: "USD" })
    expect(payloads[0].order.products[0]).toMatchObject({ product_id: created.body.product_id, external_id: created.body.external_id })
    expect(payloads[1].order).toMatchObject({ external_id: "1002", external_order_number: "#1002", shipping_line: "Express" })
    expect(payloads[1].order.customer).toMatchObject({ first_name: "Grace", email: "grace@example.com" })
  })

  it("delivers the queued product:created and order:created to the Store's webhook subscriptions", async () => {
    const store = await app.seedStore({ scopes: ["orders:write", "webhooks:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await seedIntegration(store.storeId)
    integrator.useSecret(integration.signing_secret)
    integrator.answer("external_id")
    const subscribe = async (topic: string, path: string) => {
      const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key: store.key, body: { topic, url: integrator.hookUrl(path) } })
      expect(res.status).toBe(201)
      integrator.useHookSecret(path, res.body.data.secret)
    }
    const productPath = `/hooks/${store.storeId}/products`
    const orderPath = `/hooks/${store.storeId}/orders`
    await subscribe("product:created", productPath)
    await subscribe("order:created", orderPath)

    const created = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(integration.id) })
    expect(created.status).toBe(201)
    const ordered = await app.call("POST", "/api/v3/orders", {
      key: store.key,
      body: { integration_id: integration.id, total_amount: 24900, line_items: [{ product_id: created.body.product_id, quantity: 1 }] }
    })
    expect(ordered.status).toBe(201)

    const deadline = Date.now() + 15_000
    const at = (path: string) => integrator.calls.filter((c) => c.path === path)
    while ((at(productPath).length === 0 || at(orderPath).length === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const [productDelivery] = at(productPath)
    const [orderDelivery] = at(orderPath)
    expect(productDelivery?.verified).toBe(true)
    expect(productDelivery?.headers["x-webhook-topic"]).toBe("product:created")
    expect(JSON.parse(productDelivery?.rawBody ?? "{}").product.product_id).toBe(created.body.product_id)
    expect(orderDelivery?.verified).toBe(true)
    const order = JSON.parse(orderDelivery?.rawBody ?? "{}").order
    expect(order).toMatchObject({ order_id: ordered.body.data.id, order_total: 24900, currency: "USD" })
    expect(order.products[0]).toMatchObject({ product_id: created.body.product_id, external_id: created.body.external_id })
  })

  it("keeps the design and answers 502 integration_callback_failed when the integrator fails", async () => {
    const store = await app.seedStore({ scopes: ["orders:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await seedIntegration(store.storeId)
    integrator.useSecret(integration.signing_secret)
    for (const behaviour of ["status_500", "no_external_id", "not_json", "redirect"] as const) {
      integrator.answer(behaviour)
      const res = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(integration.id) })
      expect(res.status, behaviour).toBe(502)
      expect(res.headers.get("content-type")).toContain("application/problem+json")
      expect(res.body.code).toBe("integration_callback_failed")
      // The shopper is not told what the integrator answered; the log keeps it under the request id.
      expect(res.body.detail).not.toMatch(/HTTP|external_id|json|redirect/i)
      const logged = logLines.filter((line) => line.level === "error" && line.request_id === res.headers.get("x-request-id"))
      expect(logged, behaviour).toHaveLength(1)
      expect(String(logged[0]?.message)).toContain("integration callback failed")
    }
    expect(String(logLines.filter((line) => line.level === "error").at(-1)?.message)).toContain("answered HTTP")
    // A wrong secret on the receiver's side is just another refusal.
    integrator.useSecret("whsec_someone_else")
    integrator.answer("external_id")
    expect((await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(integration.id) })).status).toBe(502)
    integrator.useSecret(integration.signing_secret)

    // Network failure: nothing listens there any more.
    const closed = await startIntegrator()
    await closed.close()
    expect((await app.operator("PATCH", `/integrations/${integration.id}`, { create_product_url: closed.url })).status).toBe(200)
    const refused = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(integration.id) })
    expect(refused.status).toBe(502)
    expect(refused.body.code).toBe("integration_callback_failed")

    // Every design was kept, each with its queued product:created, none with an external_id.
    const kept = await app.query((sql) =>
      sql<{ external_id: string | null }>`SELECT external_id FROM products WHERE store_id = ${store.storeId} AND kind = 'design'`
    )
    expect(kept).toHaveLength(6)
    expect(kept.every((row) => row.external_id === null)).toBe(true)
    const queued = await app.query((sql) =>
      sql<{ n: number }>`SELECT id AS n FROM events WHERE store_id = ${store.storeId} AND topic = 'product:created'`
    )
    expect(queued).toHaveLength(6)
  })

  it("accepts a numeric external_id and keeps it as text", async () => {
    const store = await app.seedStore({ scopes: ["orders:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await seedIntegration(store.storeId)
    integrator.useSecret(integration.signing_secret)
    integrator.answer("numeric_id")
    const res = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(integration.id) })
    expect(res.status).toBe(201)
    expect(res.body.external_id).toMatch(/^9\d+$/)
  })

  it("answers 404 for an unknown customiser and 422 for an integration that is unknown, another Store's or disabled", async () => {
    const store = await app.seedStore({ scopes: ["orders:write"] })
    const other = await app.seedStore({ scopes: ["orders:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await seedIntegration(store.storeId)
    const foreign = await seedIntegration(other.storeId)
    const disabled = await seedIntegration(store.storeId, { enabled: false })
    integrator.useSecret(integration.signing_secret)
    integrator.answer("external_id")
    const before = integrator.calls.length

    const missing = await app.call("POST", "/storefront/v1/customisers/999999/designs", { body: design(integration.id) })
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe("not_found")
    expect((await app.call("POST", "/storefront/v1/customisers/abc/designs", { body: design(integration.id) })).status).toBe(404)

    for (const [id, code] of [[foreign.id, "unknown_integration"], [999999, "unknown_integration"], [disabled.id, "integration_disabled"]] as const) {
      const res = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design(id) })
      expect(res.status).toBe(422)
      expect(res.body.code).toBe("validation_failed")
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: "/integration_id", code })])
    }
    // Another Store's customiser with this Store's integration: the integration is not the customiser's Store's.
    const foreignCustomiser = await app.seedCustomiser(other.storeId)
    const crossed = await app.call("POST", `/storefront/v1/customisers/${foreignCustomiser}/designs`, { body: design(integration.id) })
    expect(crossed.status).toBe(422)
    expect(integrator.calls.length).toBe(before)
  })

  it("validates the design body with pointers", async () => {
    const store = await app.seedStore({ scopes: ["orders:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const res = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, {
      body: { integration_id: 1, title: "", price: -1, currency: "usd", customisations: [{ key: "Bad Key", label: "x", value: "y" }] }
    })
    expect(res.status).toBe(422)
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer)
    expect(pointers).toEqual(expect.arrayContaining(["/title", "/price", "/currency", "/customisations/0/key"]))
  })

  it("creates and updates integrations through the operator API, refusing URLs the policy forbids", async () => {
    const store = await app.seedStore({ scopes: ["orders:write"] })
    const created = await seedIntegration(store.storeId, { enabled: false })
    expect(created.enabled).toBe(false)
    const patched = await app.operator("PATCH", `/integrations/${created.id}`, { enabled: true })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ id: created.id, enabled: true, create_product_url: integrator.url })
    // The change left the signing secret as it was: the answer does not carry it again.
    expect(patched.body).not.toHaveProperty("signing_secret")
    expect(JSON.stringify(patched.body)).not.toContain("whsec_")
    const bad = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: "/relative/hook" })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0]).toMatchObject({ pointer: "/create_product_url" })
    expect((await app.operator("PATCH", `/integrations/${created.id}`, { create_product_url: "ftp://x" })).status).toBe(422)
    expect((await app.operator("PATCH", "/integrations/999999", { enabled: true })).status).toBe(404)
    expect((await app.operator("POST", "/stores/999999/integrations", { create_product_url: integrator.url })).status).toBe(404)
    expect((await app.call("POST", `/operator/v1/stores/${store.storeId}/integrations`, { body: { create_product_url: integrator.url } })).status).toBe(401)
  })
})

describe("integration URLs in production", () => {
  it("refuses plain http, loopback, private and metadata create-product URLs", async () => {
    const app = startApp({ _tag: "Embedded", location: "memory" }, { ...GENEROUS_RATE_LIMITS, environment: "production", baseUrl: "https://signs.example", secretsKey: TEST_SECRETS_KEY })
    try {
      const store = await app.seedStore({ scopes: ["orders:write"] })
      for (const url of ["http://hooks.example.com/p", "https://127.0.0.1/p", "https://localhost/p", "https://169.254.169.254/p", "https://10.1.2.3/p"]) {
        const res = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: url })
        expect(res.status, url).toBe(422)
        expect(res.body.errors[0].pointer).toBe("/create_product_url")
      }
    } finally {
      await app.dispose()
    }
  }, 120_000)
})
