import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { startOAuthApp } from "@signcraft/test-kit/oauth"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"

const ALL_SCOPES = [
  "store:read",
  "customisers:read",
  "pricing:read",
  "pricing:write",
  "analytics:read",
  "quotes:read",
  "webhooks:read",
  "webhooks:write",
  "orders:read",
  "products:read"
]

describe.each(databaseVariants())("agent tools over the MCP endpoint ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config)
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  /** A Store of its own for each test: a connection with every scope and one customiser without pricing. */
  const connected = async () => {
    const connection = await app.connect({ scopes: ALL_SCOPES })
    const storeId = connection.merchant.storeIds[0] ?? 0
    const created = await app.operator("POST", `/stores/${storeId}/customisers`, {
      name: "Neon",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    expect(created.status).toBe(201)
    return { merchant: connection.merchant, token: connection.tokens.access_token, customiserId: created.body.id as number }
  }

  /** Calls a tool with `token`; answers its structured result and whether it is an error result. */
  const call = async (token: string, name: string, args: Record<string, unknown> = {}) => {
    const res = await app.mcp(token, "tools/call", { name, arguments: args })
    expect(res.status).toBe(200)
    return { isError: res.body.result.isError === true, value: res.body.result.structuredContent ?? JSON.parse(res.body.result.content[0].text) }
  }

  it("lists a tool for each v3 read and write a connector reaches, each with an input schema", async () => {
    const { token } = await connected()
    const res = await app.mcp(token, "tools/list")
    const tools: Array<{ name: string; inputSchema: { type: string } }> = res.body.result.tools
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([
      "get_store",
      "list_customisers",
      "get_customiser",
      "get_pricing",
      "validate_pricing",
      "replace_pricing",
      "patch_pricing",
      "get_analytics_summary",
      "list_quotes",
      "list_orders",
      "get_order",
      "get_product",
      "list_webhook_subscriptions",
      "create_webhook_subscription",
      "update_webhook_subscription",
      "delete_webhook_subscription"
    ]))
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object")
  })

  it("reads customisers and pricing of the connected Store", async () => {
    const { token, customiserId } = await connected()
    const list = await call(token, "list_customisers")
    expect(list.isError).toBe(false)
    expect(list.value.customisers.map((c: { id: number }) => c.id)).toEqual([customiserId])
    expect(list.value.has_more).toBe(false)
    const one = await call(token, "get_customiser", { customiser_id: customiserId })
    expect(one.value).toMatchObject({ object: "customiser", id: customiserId, pricing_model: "simple_letter" })
    const pricing = await call(token, "get_pricing", { customiser_id: customiserId })
    expect(pricing.value).toMatchObject({ object: "pricing", customiser_id: customiserId, sizes: [] })
  })

  it("validates, replaces and patches pricing with the API's rules", async () => {
    const { token, customiserId } = await connected()
    const invalid = await call(token, "validate_pricing", { customiser_id: customiserId, pricing: { sizes: [{ line_limit: 11 }] } })
    expect(invalid.isError).toBe(true)
    expect(invalid.value.error).toBe("validation_failed")
    expect(invalid.value.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/sizes/0/line_limit", "/sizes/0/name"])

    const valid = await call(token, "validate_pricing", { customiser_id: customiserId, pricing: simpleLetterContent() })
    expect(valid.value.valid).toBe(true)
    expect((await call(token, "get_pricing", { customiser_id: customiserId })).value.sizes).toEqual([])

    const replaced = await call(token, "replace_pricing", { customiser_id: customiserId, pricing: simpleLetterContent() })
    expect(replaced.isError).toBe(false)
    expect(replaced.value.sizes).toHaveLength(2)
    const patched = await call(token, "patch_pricing", { customiser_id: customiserId, patch: { sheet_pricing: null } })
    expect(patched.value).not.toHaveProperty("sheet_pricing")
    expect((await call(token, "get_pricing", { customiser_id: customiserId })).value).toEqual(patched.value)
  })

  it("keeps to the connected Store: another Store's customiser is not found", async () => {
    const { token } = await connected()
    const other = await app.seedMerchant()
    const theirs = await app.operator("POST", `/stores/${other.storeIds[0]}/customisers`, {
      name: "Theirs",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    for (const name of ["get_customiser", "get_pricing"]) {
      const res = await call(token, name, { customiser_id: theirs.body.id })
      expect(res.isError).toBe(true)
      expect(res.value.error).toBe("not_found")
    }
    const write = await call(token, "replace_pricing", { customiser_id: theirs.body.id, pricing: { sizes: [] } })
    expect(write.value.error).toBe("not_found")
  })

  it("reads the analytics summary and quotes", async () => {
    const { token } = await connected()
    const summary = await call(token, "get_analytics_summary", { period: "7d" })
    expect(summary.value).toMatchObject({ object: "analytics_summary", period: "7d", order_count: 0, revenue: [] })
    const bad = await call(token, "get_analytics_summary", { period: "2d" })
    expect(bad.value.error).toBe("invalid_parameter")
    expect(bad.value.errors[0]).toMatchObject({ parameter: "period", code: "unsupported_value" })
    const quotes = await call(token, "list_quotes")
    expect(quotes.value).toEqual({ quotes: [], has_more: false })
  })

  it("reads the Store's orders newest first and its products, as v3 shows them", async () => {
    const { token, merchant, customiserId } = await connected()
    const storeId = merchant.storeIds[0] ?? 0
    const key = await app.operator("POST", `/stores/${storeId}/api-keys`, { mode: "test", scopes: ["orders:write", "products:write", "orders:read", "products:read"] })
    const integration = await app.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/never-called" })
    const v3 = (method: string, path: string, body?: unknown) =>
      app.json(path, {
        method,
        headers: { authorization: `Bearer ${key.body.key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const product = await v3("POST", `/api/v3/customisers/${customiserId}/products`, {
      integration_id: integration.body.id,
      title: "Neon",
      price_amount: 1000,
      currency: "USD"
    })
    expect(product.status).toBe(201)
    const orderIds: Array<number> = []
    for (const total of [1000, 2000, 3000]) {
      const order = await v3("POST", "/api/v3/orders", {
        integration_id: integration.body.id,
        total_amount: total,
        currency: "USD",
        line_items: [{ product_id: product.body.data.id, quantity: 1 }]
      })
      expect(order.status).toBe(201)
      orderIds.push(order.body.data.id)
    }

    const page = await call(token, "list_orders", { limit: 2 })
    expect(page.value.orders.map((o: { id: number }) => o.id)).toEqual([orderIds[2], orderIds[1]])
    expect(page.value.has_more).toBe(true)
    const rest = await call(token, "list_orders", { limit: 2, before_id: orderIds[1] })
    expect(rest.value).toMatchObject({ has_more: false })
    expect(rest.value.orders.map((o: { id: number }) => o.id)).toEqual([orderIds[0]])

    const one = await call(token, "get_order", { order_id: orderIds[0] })
    expect(one.value).toEqual((await v3("GET", `/api/v3/orders/${orderIds[0]}`)).body.data)
    const read = await call(token, "get_product", { product_id: product.body.data.id })
    expect(read.value).toEqual(product.body.data)
    const missing = await call(token, "get_order", { order_id: 999999999 })
    expect(missing.isError).toBe(true)
    expect(missing.value.error).toBe("not_found")
  })

  it("refuses a chunked body over the 1 MiB limit with 413 before the MCP SDK reads it (its own cap is 4 MiB)", async () => {
    const { token } = await connected()
    const piece = new TextEncoder().encode(`"${"x".repeat(64 * 1024)}",`)
    let sent = 0
    // 2 MiB in 64 KiB chunks, with no Content-Length: only reading can find the size.
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (sent >= 32) {
          controller.enqueue(new TextEncoder().encode("1]"))
          controller.close()
          return
        }
        controller.enqueue(sent === 0 ? new Uint8Array([91, ...piece]) : piece)
        sent += 1
      }
    })
    const res = await app.fetchApp(app.agentUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
      duplex: "half"
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(sent).toBeLessThan(32)
  })

  it("manages webhook subscriptions, showing the secret only on creation", async () => {
    const { token } = await connected()
    const created = await call(token, "create_webhook_subscription", { topic: "order:created", url: "http://127.0.0.1:9/hook" })
    expect(created.isError).toBe(false)
    expect(created.value.secret).toMatch(/^whsec_/)
    const id = created.value.id
    const updated = await call(token, "update_webhook_subscription", { webhook_id: id, topic: "product:created" })
    expect(updated.value).toMatchObject({ id, topic: "product:created", url: "http://127.0.0.1:9/hook" })
    expect(updated.value).not.toHaveProperty("secret")
    const list = await call(token, "list_webhook_subscriptions")
    expect(list.value.webhook_subscriptions.map((s: { id: number }) => s.id)).toContain(id)
    expect(list.value.webhook_subscriptions[0]).not.toHaveProperty("secret")
    expect((await call(token, "delete_webhook_subscription", { webhook_id: id })).value).toEqual({ deleted: true, webhook_id: id })
    expect((await call(token, "list_webhook_subscriptions")).value.webhook_subscriptions).toEqual([])
    const badTopic = await call(token, "create_webhook_subscription", { topic: "order:deleted", url: "http://127.0.0.1:9/hook" })
    expect(badTopic.value.error).toBe("validation_failed")
  })

  it("reads events and a subscription's deliveries, and offers no tool that sends events again", async () => {
    const { merchant, token } = await connected()
    const storeId = merchant.storeIds[0] ?? 0
    const hook = (await call(token, "create_webhook_subscription", { topic: "order:created", url: "http://127.0.0.1:9/hook" })).value
    // An event and its failed first attempt, as the outbox and the worker write them.
    const eventId = await app.runSql(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [event] = yield* sql<{ readonly id: unknown }>`
        INSERT INTO events (store_id, topic, body) VALUES (${storeId}, 'order:created', '{"order":{"order_id":1}}') RETURNING id`
      const [delivery] = yield* sql<{ readonly id: unknown }>`
        INSERT INTO webhook_deliveries (event_id, subscription_id, status, attempt_count, next_attempt_at)
        VALUES (${Number(event?.id)}, ${hook.id}, 'pending', 1, now() + interval '1 hour') RETURNING id`
      yield* sql`
        INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_status, response_excerpt, error, status, next_attempt_at)
        VALUES (${Number(delivery?.id)}, 1, now(), 12, 503, 'down', 'HTTP 503', 'pending', now() + interval '1 hour')`
      return Number(event?.id)
    }))

    const events = await call(token, "list_events", { delivery_status: "pending" })
    expect(events.isError).toBe(false)
    expect(events.value).toEqual({
      events: [{ object: "event", id: `evt_${eventId}`, type: "order:created", created_at: expect.any(String), data: { order: { order_id: 1 } }, delivery_status: "pending" }],
      has_more: false
    })
    expect((await call(token, "list_events", { type: "product:created" })).value.events).toEqual([])
    expect((await call(token, "get_event", { event_id: `evt_${eventId}` })).value.id).toBe(`evt_${eventId}`)
    expect((await call(token, "get_event", { event_id: "evt_999999999" })).value.error).toBe("not_found")
    expect((await call(token, "get_event", { event_id: "42" })).value.error).toBe("validation_failed")

    const deliveries = await call(token, "list_webhook_deliveries", { webhook_id: hook.id })
    expect(deliveries.value.deliveries[0]).toMatchObject({ event_id: eventId, status: "pending", trigger: "scheduled" })
    expect(deliveries.value.deliveries[0].attempts[0]).toMatchObject({ response_status: 503, response_body: "down", status: "pending", trigger: "scheduled" })

    const tools: Array<{ name: string }> = (await app.mcp(token, "tools/list")).body.result.tools
    const names = tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(["list_events", "get_event", "list_webhook_deliveries"]))
    expect(names.filter((name) => /resend|recover|redeliver|replay|test_event/.test(name))).toEqual([])

    const reader = await app.connect({ scopes: ["store:read"], merchant })
    const refused = await call(reader.tokens.access_token, "list_events")
    expect(refused.value).toMatchObject({ error: "insufficient_scope", required_scopes: ["webhooks:read"] })
  })

  it("answers a tool outside the grant with insufficient_scope and required_scopes", async () => {
    const { merchant, token, customiserId } = await connected()
    const before = (await call(token, "get_pricing", { customiser_id: customiserId })).value
    // The same person's second connection to the same Store, with a narrower grant.
    const reader = await app.connect({ scopes: ["customisers:read"], merchant })
    const res = await call(reader.tokens.access_token, "replace_pricing", { customiser_id: customiserId, pricing: simpleLetterContent() })
    expect(res.isError).toBe(true)
    expect(res.value).toMatchObject({ error: "insufficient_scope", required_scopes: ["pricing:write"] })
    // Nothing was written.
    expect((await call(token, "get_pricing", { customiser_id: customiserId })).value).toEqual(before)
  })
})
