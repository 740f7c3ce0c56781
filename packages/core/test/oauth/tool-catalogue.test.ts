import { randomUUID } from "node:crypto"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
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

interface ListedTool {
  readonly name: string
  readonly description: string
  readonly outputSchema?: Record<string, unknown>
  readonly annotations?: Record<string, unknown>
}

interface ToolCallResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text: string }>
  readonly structuredContent?: Record<string, unknown>
  readonly isError?: boolean
}

// The validator the official MCP SDK client checks structured content with.
const validator = new AjvJsonSchemaValidator()

describe.each(databaseVariants())("the tool catalogue: every tool's output against its declared schema ($name database)", (variant) => {
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

  /** A Store holding one of everything a tool reads: a priced customiser, a product, an order, a quote, a subscription. */
  const furnishedStore = async () => {
    const connection = await app.connect({ scopes: ALL_SCOPES })
    const storeId = connection.merchant.storeIds[0] ?? 0
    const customiser = await app.operator("POST", `/stores/${storeId}/customisers`, {
      name: "Neon",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    expect(customiser.status).toBe(201)
    const customiserId = customiser.body.id as number
    const key = await app.operator("POST", `/stores/${storeId}/api-keys`, {
      mode: "test",
      scopes: ["pricing:write", "orders:write", "products:write", "webhooks:write"]
    })
    const integration = await app.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/never-called" })
    const v3 = async (method: string, path: string, body: unknown) => {
      const res = await app.json(path, {
        method,
        headers: { authorization: `Bearer ${key.body.key}`, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify(body)
      })
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
      return res.body.data
    }
    await v3("PUT", `/api/v3/customisers/${customiserId}/pricing`, simpleLetterContent())
    const product = await v3("POST", `/api/v3/customisers/${customiserId}/products`, {
      integration_id: integration.body.id,
      title: "Neon",
      price_amount: 1000,
      currency: "USD",
      width_cm: 40.5,
      customisations: [{ key: "text", label: "Text", value: "Open" }]
    })
    const order = await v3("POST", "/api/v3/orders", {
      integration_id: integration.body.id,
      total_amount: 1000,
      currency: "USD",
      line_items: [{ product_id: product.id, quantity: 1 }]
    })
    const subscription = await v3("POST", "/api/v3/webhook-subscriptions", { topic: "order:created", url: "http://127.0.0.1:9/hook" })
    const quote = await app.json(`/storefront/v1/customisers/${customiserId}/form-submissions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ responses: [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "shopper@example.com" }] })
    })
    expect(quote.status).toBe(201)
    return {
      token: connection.tokens.access_token,
      customiserId,
      productId: product.id as number,
      orderId: order.id as number,
      subscriptionId: subscription.id as number
    }
  }

  const callTool = async (token: string, name: string, args: Record<string, unknown>): Promise<ToolCallResult> => {
    const res = await app.mcp(token, "tools/call", { name, arguments: args })
    expect(res.status).toBe(200)
    return res.body.result
  }

  const expectConforming = (tool: ListedTool, result: ToolCallResult) => {
    expect(result.structuredContent, `${tool.name} answers structured content`).toBeDefined()
    const verdict = validator.getValidator(tool.outputSchema ?? {})(result.structuredContent)
    expect(verdict.errorMessage, `${tool.name}: ${JSON.stringify(result.structuredContent)}`).toBeUndefined()
    expect(verdict.valid).toBe(true)
    // The text content is the same JSON.
    expect(result.content).toHaveLength(1)
    expect(result.content[0]?.type).toBe("text")
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(result.structuredContent)
  }

  it("calls every listed tool and validates what it answers against its outputSchema, with all three hints declared", async () => {
    const store = await furnishedStore()
    const listed: ReadonlyArray<ListedTool> = (await app.mcp(store.token, "tools/list")).body.result.tools
    // The newest of the Store's events (its order's order:created), for get_event.
    const events = (await callTool(store.token, "list_events", { limit: 1 })).structuredContent as { events: ReadonlyArray<{ id: string }> }
    const eventId = events.events[0]?.id
    expect(eventId).toMatch(/^evt_\d+$/)
    // One call per tool, in an order where each still finds what it needs (the deletion last).
    const calls: Record<string, Record<string, unknown>> = {
      get_store: {},
      list_customisers: { limit: 1 },
      get_customiser: { customiser_id: store.customiserId },
      get_pricing: { customiser_id: store.customiserId },
      validate_pricing: { customiser_id: store.customiserId, pricing: simpleLetterContent() },
      replace_pricing: { customiser_id: store.customiserId, pricing: simpleLetterContent() },
      patch_pricing: { customiser_id: store.customiserId, patch: { sheet_pricing: null } },
      get_analytics_summary: { period: "7d" },
      list_orders: {},
      get_order: { order_id: store.orderId },
      get_product: { product_id: store.productId },
      list_quotes: {},
      list_webhook_subscriptions: {},
      list_events: { limit: 5 },
      get_event: { event_id: eventId },
      list_webhook_deliveries: { webhook_id: store.subscriptionId },
      create_webhook_subscription: { topic: "product:created", url: "http://127.0.0.1:9/other" },
      update_webhook_subscription: { webhook_id: store.subscriptionId, url: "http://127.0.0.1:9/moved" },
      delete_webhook_subscription: { webhook_id: store.subscriptionId }
    }
    // A tool added to the catalogue without a call here fails this test: the walk covers them all.
    expect([...listed.map((tool) => tool.name)].sort()).toEqual(Object.keys(calls).sort())
    for (const [name, args] of Object.entries(calls)) {
      const tool = listed.find((candidate) => candidate.name === name)
      if (tool === undefined) throw new Error(`${name} is not listed`)
      expect(tool.outputSchema?.type, `${name} declares an object outputSchema`).toBe("object")
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint"]) {
        expect(typeof tool.annotations?.[hint], `${name} declares ${hint}`).toBe("boolean")
      }
      const result = await callTool(store.token, name, args)
      expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy()
      expectConforming(tool, result)
    }
  })

  it("declares the hints each tool's effect calls for: reads are read-only, deletions and replacements destructive", async () => {
    const store = await furnishedStore()
    const listed: ReadonlyArray<ListedTool> = (await app.mcp(store.token, "tools/list")).body.result.tools
    const hints = Object.fromEntries(listed.map((tool) => [tool.name, tool.annotations]))
    expect(hints.get_pricing).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true })
    expect(hints.validate_pricing).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true })
    expect(hints.replace_pricing).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true })
    expect(hints.patch_pricing).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false })
    expect(hints.create_webhook_subscription).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false })
    expect(hints.delete_webhook_subscription).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true })
  })

  it("/docs/agent lists every tool with its scopes and its three hints, as tools/list declares them", async () => {
    const { token } = await furnishedStore()
    const listed: ReadonlyArray<ListedTool> = (await app.mcp(token, "tools/list")).body.result.tools
    const page = await app.fetchApp("/docs/agent")
    expect(page.status).toBe(200)
    const html = await page.text()
    for (const tool of listed) {
      const row = html.slice(html.indexOf(`<tr><td><code>${tool.name}</code>`)).split("</tr>")[0] ?? ""
      expect(row, tool.name).toContain(`<code>${tool.name}</code>`)
      const scopes = /Needs: ([^.]+)\./.exec(tool.description)?.[1]?.split(", ") ?? []
      for (const scope of scopes) expect(row, tool.name).toContain(`<code>${scope}</code>`)
      const cells = [...row.matchAll(/<td>(yes|no)<\/td>/g)].map((m) => m[1])
      const yesNo = (hint: string) => (tool.annotations?.[hint] === true ? "yes" : "no")
      expect(cells, tool.name).toEqual([yesNo("readOnlyHint"), yesNo("destructiveHint"), yesNo("idempotentHint")])
    }
  })

  it("error results conform too: a refusal, a missing scope and a bad argument each validate against the tool's schema", async () => {
    const store = await furnishedStore()
    const reader = await app.connect({ scopes: ["pricing:read"] })
    const listed: ReadonlyArray<ListedTool> = (await app.mcp(store.token, "tools/list")).body.result.tools
    const toolNamed = (name: string) => {
      const tool = listed.find((candidate) => candidate.name === name)
      if (tool === undefined) throw new Error(`${name} is not listed`)
      return tool
    }
    const missing = await callTool(store.token, "get_order", { order_id: 999999999 })
    expect(missing.isError).toBe(true)
    expectConforming(toolNamed("get_order"), missing)
    const unscoped = await callTool(reader.tokens.access_token, "replace_pricing", { customiser_id: store.customiserId, pricing: {} })
    expect(unscoped.structuredContent).toMatchObject({ error: "insufficient_scope", granted_scopes: ["pricing:read"] })
    expectConforming(toolNamed("replace_pricing"), unscoped)
    const invalid = await callTool(store.token, "validate_pricing", { customiser_id: store.customiserId, pricing: { sizes: [{ line_limit: 11 }] } })
    expect(invalid.structuredContent?.error).toBe("validation_failed")
    expectConforming(toolNamed("validate_pricing"), invalid)
  })
})
