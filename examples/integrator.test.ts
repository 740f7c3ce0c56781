import { SigncraftClient } from "@signcraft/client"
import { webhooks } from "@signcraft/core/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, type TestDatabase } from "@signcraft/test-kit"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"
import { createProductReceiver, migrateV2Order, runIntegrator } from "./integrator.js"

// The example, run end to end against the real server on loopback.
describe("examples/integrator.ts", () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  beforeAll(async () => {
    db = await embeddedVariant.create()
    server = await startLoopbackServer(db.config)
  })
  afterAll(async () => {
    await server?.dispose()
    await db?.cleanup()
  })

  it("checks the Store, receives product:created, migrates a v2 order and sends it once", async () => {
    const seed = await server.seedStore({ scopes: ["store:read", "orders:write"] })
    const integration = await server.operator("POST", `/stores/${seed.storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/unset" })
    const customiser = await server.operator("POST", `/stores/${seed.storeId}/customisers`, {
      name: "Neon", product_family: "neon", selection_mode: "single_style", pricing_model: "simple_letter"
    })
    const lines: Array<string> = []
    let design: { status: number; body: { product_id: number; external_id: string } } | undefined
    const options = {
      baseUrl: server.url,
      apiKey: seed.key,
      signingSecret: integration.body.signing_secret as string,
      port: 0,
      // The merchant points the integration at the example; then a shopper finishes a design.
      onReady: async (url: string) => {
        expect((await server.operator("PATCH", `/integrations/${integration.body.id}`, { create_product_url: url })).status).toBe(200)
        design = await server.call("POST", `/storefront/v1/customisers/${customiser.body.id}/designs`, {
          body: { integration_id: integration.body.id, title: "Open Late", price: 12_900, currency: "USD" }
        })
      },
      v2Order: (product: { externalId: string; price: number }) => ({
        integration_id: integration.body.id,
        external_id: "WEB-1001",
        external_order_number: "#1001",
        currency: "usd",
        shipping_line: "Express",
        products: [{ external_id: product.externalId, quantity: 2, price: product.price }]
      }),
      log: (line: string) => void lines.push(line)
    }
    const result = await runIntegrator(options)
    expect(result.store).toEqual({ id: seed.storeId, platform: "custom", scopes: ["store:read", "orders:write"] })
    expect(design?.status).toBe(201)
    expect(design?.body).toMatchObject({ product_id: result.product.productId, external_id: `shop-product-${result.product.productId}` })
    expect(result.order).toMatchObject({
      object: "order",
      status: "received",
      store_order_id: "WEB-1001",
      store_order_number: "#1001",
      shipping_method: "Express",
      total_amount: 25_800,
      currency: "USD",
      line_items: [{ product_id: result.product.productId, quantity: 2, unit_price_amount: 12_900 }]
    })
    expect(result.replayed).toBe(false)
    expect(lines[0]).toMatch(/^GET \/api\/v3\/stores\/me -> 200 req_\w+$/)
    expect(lines.at(-1)).toMatch(new RegExp(`^order ${result.order.id} received \\(req_\\w+\\)$`))

    // Migrating the same order again replays it instead of creating a second one.
    const client = new SigncraftClient({ baseUrl: server.url, apiKey: seed.key })
    const again = await migrateV2Order(client, options.v2Order(result.product), new Map([[result.product.externalId, result.product.productId]]))
    expect(again.body.data.id).toBe(result.order.id)
    expect(again.headers.get("idempotency-replay")).toBe("true")
  })

  it("refuses product:created deliveries that are unsigned, forged or re-encoded", async () => {
    const seen: Array<unknown> = []
    const receiver = createProductReceiver({ secret: "whsec_right", onProduct: (product) => void seen.push(product) })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    try {
      const address = receiver.address()
      const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/products`
      const raw = JSON.stringify({ product: { product_id: 5, title: "A", price: 100 } })
      const post = (body: string, headers: Record<string, string>) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
      expect((await post(raw, {})).status).toBe(401)
      expect((await post(raw, webhooks.signatureHeaders("whsec_wrong", raw, new Date()))).status).toBe(401)
      const signed = webhooks.signatureHeaders("whsec_right", raw, new Date())
      expect((await post(JSON.stringify(JSON.parse(raw), null, 2), signed)).status).toBe(401)
      const accepted = await post(raw, signed)
      expect(await accepted.json()).toEqual({ external_id: "shop-product-5" })
      expect(seen).toEqual([{ productId: 5, externalId: "shop-product-5", title: "A", price: 100 }])
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })
})
