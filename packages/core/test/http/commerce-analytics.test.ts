import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"

type App = TestApp

const DAY = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

// The app's clock stands at noon UTC of a fixed day, so "today" and "yesterday" are the same for
// the server and the test whenever it runs (no midnight between them). Rows the tests age are
// given explicit instants, never the database's own now().
const clock = adjustableClock({ start: Date.parse("2026-06-15T12:00:00.000Z") })
const todayStart = () => clock.now() - (clock.now() % DAY)

describe.each(databaseVariants())("GET /api/v3/analytics/summary ($name database)", (variant) => {
  let db: TestDatabase
  let app: App

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS, {}, { clock })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const importOrders = async (storeId: number, orders: ReadonlyArray<{ at: number | string; amount: number; currency: string; customer?: unknown }>) => {
    const res = await app.operator("POST", `/stores/${storeId}/orders/import`, {
      orders: orders.map((o) => ({
        created_at: typeof o.at === "string" ? o.at : new Date(o.at).toISOString(),
        total_amount: o.amount,
        currency: o.currency,
        ...(o.customer === undefined ? {} : { customer: o.customer })
      }))
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ imported: orders.length })
  }
  const summary = (key: string, query = "") => app.call("GET", `/api/v3/analytics/summary${query}`, { key })

  it("defaults to 30d ending yesterday: the half-open window of complete UTC days", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const res = await summary(s.key)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      object: "analytics_summary",
      period: "30d",
      starts_at: new Date(todayStart() - 30 * DAY).toISOString(),
      ends_before: new Date(todayStart()).toISOString(),
      order_count: 0,
      product_count: 0,
      revenue: []
    })
    expect(res.body.meta.api_version).toBe("v3")
    expect(res.body.links.self).toBe("http://localhost:8080/api/v3/analytics/summary")
  })

  it("counts an order at starts_at and one a millisecond before ends_before, not one a millisecond before starts_at or at ends_before", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const endDate = "2026-03-31"
    const endsBefore = Date.parse("2026-04-01T00:00:00.000Z")
    const startsAt = endsBefore - 7 * DAY
    await importOrders(s.storeId, [
      { at: startsAt, amount: 100, currency: "USD" },
      { at: endsBefore - 1, amount: 10, currency: "USD" },
      { at: startsAt - 1, amount: 1000, currency: "USD" },
      { at: endsBefore, amount: 10000, currency: "USD" },
      // The same instants written with an offset are the same instants.
      { at: "2026-03-25T02:00:00.000+02:00", amount: 1, currency: "USD" },
      { at: "2026-03-24T23:59:59.999-00:00", amount: 100000, currency: "USD" }
    ])
    const res = await summary(s.key, `?period=7d&end_date=${endDate}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      period: "7d",
      starts_at: "2026-03-25T00:00:00.000Z",
      ends_before: "2026-04-01T00:00:00.000Z",
      order_count: 3,
      revenue: [{ currency: "USD", amount: 111, order_count: 3 }]
    })
  })

  it("counts a product at starts_at and one a millisecond before ends_before, not one a millisecond before starts_at or at ends_before", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const endsBefore = todayStart() - 3 * DAY
    const startsAt = endsBefore - 7 * DAY
    const product = (at: number, title: string) => ({ created_at: new Date(at).toISOString(), title, price_amount: 1, currency: "USD" })
    const imported = await app.operator("POST", `/stores/${s.storeId}/products/import`, {
      products: [
        product(startsAt, "first instant"),
        product(endsBefore - 1, "last instant"),
        product(startsAt - 1, "the day before"),
        product(endsBefore, "the day after")
      ]
    })
    expect(imported.status).toBe(200)
    const res = await summary(s.key, `?period=7d&end_date=${isoDay(endsBefore - DAY)}`)
    expect(res.body.data).toMatchObject({
      starts_at: new Date(startsAt).toISOString(),
      ends_before: new Date(endsBefore).toISOString(),
      product_count: 2
    })
  })

  it("keeps each native currency apart and puts every malformed code in one null bucket", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const at = todayStart() - 2 * DAY + 5000
    await importOrders(s.storeId, [
      { at, amount: 1000, currency: "USD" },
      { at, amount: 2000, currency: "USD" },
      { at, amount: 500, currency: "EUR" },
      { at, amount: 7, currency: "JPY" },
      { at, amount: 1, currency: "usd" },
      { at, amount: 2, currency: "US" },
      { at, amount: 4, currency: "ZZZ" },
      { at, amount: 8, currency: "" },
      { at, amount: 16, currency: "USDX" }
    ])
    const res = await summary(s.key, "?period=7d")
    expect(res.body.data.order_count).toBe(9)
    expect(res.body.data.revenue).toEqual([
      { currency: "EUR", amount: 500, order_count: 1 },
      { currency: "JPY", amount: 7, order_count: 1 },
      { currency: "USD", amount: 3000, order_count: 2 },
      { currency: null, amount: 31, order_count: 5 }
    ])
  })

  it("counts modern products (v3, designs, imports) and never legacy product-cache rows", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read", "products:write"] })
    const at = new Date(todayStart() - DAY).toISOString()
    await app.operator("POST", `/stores/${s.storeId}/products/import`, {
      products: [
        { created_at: at, title: "a", price_amount: 1, currency: "USD" },
        { created_at: at, title: "b", price_amount: 1, currency: "USD" },
        { created_at: at, title: "cache", price_amount: 1, currency: "USD", legacy: true },
        { created_at: new Date(todayStart() - 40 * DAY).toISOString(), title: "old", price_amount: 1, currency: "USD" }
      ]
    })
    const customiserId = await app.seedCustomiser(s.storeId)
    const integration = await app.operator("POST", `/stores/${s.storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/x" })
    await app.call("POST", `/api/customisers/${customiserId}/products`, {
      key: s.key,
      body: { product_id: "p1", cart: {}, price_breakdown: {} }
    })
    const today = await app.call("POST", `/api/v3/customisers/${customiserId}/products`, {
      key: s.key,
      body: { integration_id: integration.body.id, title: "today", price_amount: 1, currency: "USD" }
    })
    // Written today: outside any window, which ends yesterday at the latest.
    const writtenAt = (at: number) =>
      app.query((sql) => sql`UPDATE products SET created_at = ${new Date(at)} WHERE id = ${today.body.data.id}`)
    await writtenAt(todayStart() + 1000)
    expect((await summary(s.key)).body.data.product_count).toBe(2)
    expect((await summary(s.key, "?period=90d")).body.data.product_count).toBe(3)
    await writtenAt(todayStart() - DAY + 1000)
    expect((await summary(s.key, "?period=90d")).body.data.product_count).toBe(4)
  })

  it("confines the summary to the calling key's Store and leaves customer data out", async () => {
    const a = await app.seedStore({ scopes: ["analytics:read"] })
    const b = await app.seedStore({ scopes: ["analytics:read"] })
    const at = todayStart() - 3 * DAY
    await importOrders(a.storeId, [{ at, amount: 5, currency: "GBP", customer: { email: "secret@example.com", first_name: "Sec" } }])
    await importOrders(b.storeId, [{ at, amount: 70, currency: "GBP" }, { at, amount: 70, currency: "GBP" }])
    const res = await summary(a.key)
    expect(res.body.data.revenue).toEqual([{ currency: "GBP", amount: 5, order_count: 1 }])
    expect(JSON.stringify(res.body)).not.toContain("secret@example.com")
    expect(JSON.stringify(res.body)).not.toContain("Sec")
    expect((await summary(b.key)).body.data.revenue).toEqual([{ currency: "GBP", amount: 140, order_count: 2 }])
    // Imports announce nothing.
    const events = await app.query((sql) => sql<{ id: number }>`SELECT id FROM events WHERE store_id IN (${a.storeId}, ${b.storeId})`)
    expect(events).toHaveLength(0)
  })

  it("counts orders written through every generation", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read", "orders:write", "products:write"] })
    const customiserId = await app.seedCustomiser(s.storeId)
    const integration = await app.operator("POST", `/stores/${s.storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/x" })
    const product = await app.call("POST", `/api/v3/customisers/${customiserId}/products`, {
      key: s.key,
      body: { integration_id: integration.body.id, title: "t", price_amount: 300, currency: "USD" }
    })
    await app.call("POST", "/api/v3/orders", {
      key: s.key,
      body: { integration_id: integration.body.id, total_amount: 300, currency: "USD", line_items: [{ product_id: product.body.data.id, quantity: 1 }] }
    })
    await app.call("POST", "/api/orders", { key: s.key, body: { order_id: "1", order_number: "1", order_total: 1.5, order_currency: "USD", products: [] } })
    await app.query((sql) => sql`UPDATE orders SET created_at = ${new Date(todayStart() - DAY + 1000)} WHERE store_id = ${s.storeId}`)
    expect((await summary(s.key, "?period=7d")).body.data.revenue).toEqual([{ currency: "USD", amount: 450, order_count: 2 }])
  })

  it("agrees with a direct aggregation over the orders for every period", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const currencies = ["USD", "EUR", "KWD", "bad", "JPY"]
    const orders = Array.from({ length: 400 }, (_, i) => ({
      at: todayStart() - ((i * 7919) % (400 * DAY)) - (i % 3),
      amount: (i * 37) % 10_000,
      currency: currencies[i % currencies.length] ?? "USD"
    }))
    await importOrders(s.storeId, orders)
    for (const period of ["7d", "30d", "90d", "365d"] as const) {
      const days = Number(period.slice(0, -1))
      for (const endOffset of [1, 2, 45]) {
        const endsBefore = todayStart() - (endOffset - 1) * DAY
        const startsAt = endsBefore - days * DAY
        const inside = orders.filter((o) => Number(o.at) >= startsAt && Number(o.at) < endsBefore)
        const expected = new Map<string | null, { amount: number; order_count: number }>()
        for (const o of inside) {
          const bucket = ["USD", "EUR", "KWD", "JPY"].includes(o.currency) ? o.currency : null
          const entry = expected.get(bucket) ?? { amount: 0, order_count: 0 }
          expected.set(bucket, { amount: entry.amount + o.amount, order_count: entry.order_count + 1 })
        }
        const res = await summary(s.key, `?period=${period}&end_date=${isoDay(endsBefore - DAY)}`)
        expect(res.body.data.order_count, `${period} ending ${endOffset}`).toBe(inside.length)
        expect(new Map(res.body.data.revenue.map((b: { currency: string | null; amount: number; order_count: number }) =>
          [b.currency, { amount: b.amount, order_count: b.order_count }]))).toEqual(expected)
      }
    }
  })

  it("answers 422 invalid_parameter naming the parameter: unsupported period, unparseable or non-past end_date", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const period = await summary(s.key, "?period=14d")
    expect(period.status).toBe(422)
    expect(period.headers.get("content-type")).toContain("application/problem+json")
    expect(period.body.code).toBe("invalid_parameter")
    expect(period.body.errors).toEqual([
      expect.objectContaining({ parameter: "period", code: "unsupported_value", allowed_values: ["7d", "30d", "90d", "365d"] })
    ])
    for (const endDate of ["yesterday", "2026-02-30", "2026-1-5", isoDay(todayStart()), isoDay(todayStart() + DAY), ""]) {
      const res = await summary(s.key, `?end_date=${encodeURIComponent(endDate)}`)
      expect(res.status, endDate).toBe(422)
      expect(res.body.code).toBe("invalid_parameter")
      expect(res.body.errors).toEqual([expect.objectContaining({ parameter: "end_date" })])
    }
    const both = await summary(s.key, "?period=1y&end_date=nope")
    expect(both.body.errors.map((e: { parameter: string }) => e.parameter)).toEqual(["period", "end_date"])
    expect((await summary(s.key, `?end_date=${isoDay(todayStart() - DAY)}`)).status).toBe(200)
  })

  it("needs analytics:read and a key", async () => {
    const s = await app.seedStore({ scopes: ["orders:write"] })
    const res = await summary(s.key)
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: "insufficient_scope", required_scopes: ["analytics:read"] })
    const missing = await app.call("GET", "/api/v3/analytics/summary")
    expect(missing.status).toBe(401)
    expect(missing.body.code).toBe("missing_api_key")
  })

  it("validates imports: timestamps with an offset, integer amounts", async () => {
    const s = await app.seedStore({ scopes: ["analytics:read"] })
    const res = await app.operator("POST", `/stores/${s.storeId}/orders/import`, {
      orders: [{ created_at: "2026-01-01 10:00", total_amount: 1.5, currency: "USD" }]
    })
    expect(res.status).toBe(422)
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(
      expect.arrayContaining(["/orders/0/created_at", "/orders/0/total_amount"])
    )
    expect((await app.operator("POST", "/stores/999999/orders/import", { orders: [] })).status).toBe(404)
  })
})
