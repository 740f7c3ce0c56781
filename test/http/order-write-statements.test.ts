import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startCommerceApp } from "../support/commerce.js"
import { databaseVariants, type TestDatabase } from "../support/databases.js"
import { statementRecorder } from "../support/statements.js"

const CALLBACK_URL = "https://shop.example.com/signcraft/products"

// The order write is the service's hottest write: its round trips to the database are counted
// here, so one added by accident (a lookup, a transaction) is seen, not only measured later.
describe.each(databaseVariants())("the statements of an order write ($name database)", (variant) => {
  let db: TestDatabase
  let app: Awaited<ReturnType<typeof startCommerceApp>>
  const recorder = statementRecorder()
  beforeAll(async () => {
    db = await variant.create()
    app = await startCommerceApp(db.config, {}, {}, { layer: recorder.layer })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("reads once and writes the order with its event in one statement", async () => {
    const store = await app.seedStore({ scopes: ["orders:write", "products:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: CALLBACK_URL })
    const product = await app.call("POST", `/api/v3/customisers/${customiserId}/products`, {
      key: store.key,
      body: { integration_id: integration.body.id, title: "Neon", price_amount: 12500, currency: "USD" }
    })
    expect(product.status).toBe(201)
    const order = {
      integration_id: integration.body.id,
      total_amount: 25000,
      line_items: [{ product_id: product.body.data.id, quantity: 2 }]
    }
    // The first request of a key fetches what later ones find in memory (the key, its quota).
    expect((await app.call("POST", "/api/v3/orders", { key: store.key, body: order })).status).toBe(201)

    recorder.clear()
    const res = await app.call("POST", "/api/v3/orders", { key: store.key, body: order })
    expect(res.status).toBe(201)
    const statements = recorder.statements()
    const touchingOrders = statements.filter((text) => /\borders\b/.test(text))
    expect(touchingOrders).toHaveLength(2)
    expect(touchingOrders[1]).toMatch(/INSERT INTO orders[\s\S]*INSERT INTO events/)
    // Nothing else: the integration, the products, the Store's currency and the order's id all
    // come from the one read.
    expect(statements).toHaveLength(2)
  })
})
