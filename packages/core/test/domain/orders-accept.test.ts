import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { acceptOrder, type OrderAcceptanceContext } from "../../src/domain/orders/accept.js"
import type { OrderDraft, OrderWriteOptions } from "../../src/domain/orders/stored-order.js"
import type { StoredProduct } from "../../src/domain/orders/stored-product.js"

const placedAt = new Date("2026-03-01T12:00:00Z")
const product = (id: number, overrides: Partial<StoredProduct> = {}): StoredProduct => ({
  id,
  storeId: 7,
  kind: "product",
  customiserId: null,
  integrationId: null,
  storeProductId: null,
  externalId: null,
  title: `Sign ${id}`,
  description: null,
  priceAmount: 1250,
  comparePrice: null,
  currency: "USD",
  details: {},
  createdAt: placedAt,
  updatedAt: placedAt,
  ...overrides
})
const v3: OrderWriteOptions = {
  source: "v3",
  allowedKinds: ["product", "design"],
  integrationPointer: "/integration_id",
  lineItemPointer: (index) => `/line_items/${index}/product_id`
}
const context = (overrides: Partial<OrderAcceptanceContext> = {}): OrderAcceptanceContext => ({
  orderId: 41,
  placedAt,
  storeCurrency: "USD",
  integration: { storeId: 7, enabled: true },
  products: [product(1), product(2, { priceAmount: 300 })],
  ...overrides
})
const draft = (overrides: Partial<OrderDraft> = {}): OrderDraft => ({
  integration_id: 3,
  total_amount: 2800,
  line_items: [{ product_id: 1, quantity: 2 }, { product_id: 2, quantity: 1 }],
  ...overrides
})
const faultsOf = (result: ReturnType<typeof acceptOrder>) =>
  Result.isFailure(result) ? result.failure.errors.map((fault) => [fault.pointer, fault.code]) : []

describe("order acceptance", () => {
  it("captures each line's price, sums the app total and takes the Store's currency when none is named", () => {
    const result = acceptOrder(7, draft(), v3, context())
    expect(Result.isSuccess(result)).toBe(true)
    if (Result.isFailure(result)) return
    expect(result.success).toMatchObject({ id: 41, storeId: 7, source: "v3", currency: "USD", totalAmount: 2800, appTotal: 2800, createdAt: placedAt })
    expect(result.success.lineItems).toEqual([
      { productId: 1, quantity: 2, unitPriceAmount: 1250, currency: "USD", title: "Sign 1" },
      { productId: 2, quantity: 1, unitPriceAmount: 300, currency: "USD", title: "Sign 2" }
    ])
  })

  it("refuses another Store's, an unknown and a disabled integration at the generation's pointer", () => {
    expect(faultsOf(acceptOrder(7, draft(), v3, context({ integration: { storeId: 8, enabled: true } })))).toEqual([["/integration_id", "unknown_integration"]])
    expect(faultsOf(acceptOrder(7, draft(), v3, context({ integration: undefined })))).toEqual([["/integration_id", "unknown_integration"]])
    expect(faultsOf(acceptOrder(7, draft(), v3, context({ integration: { storeId: 7, enabled: false } })))).toEqual([["/integration_id", "integration_disabled"]])
    // The unversioned generation names no integration: none is checked.
    expect(Result.isSuccess(acceptOrder(7, draft({ integration_id: null }), v3, context({ integration: undefined })))).toBe(true)
  })

  it("reports every line at fault: unknown products, kinds the generation may not reference, and another currency", () => {
    const products = [product(1), product(2, { kind: "legacy" }), product(3, { currency: "EUR" })]
    const lines = [1, 2, 3, 4].map((id) => ({ product_id: id, quantity: 1 }))
    expect(faultsOf(acceptOrder(7, draft({ line_items: lines }), v3, context({ products })))).toEqual([
      ["/line_items/1/product_id", "unknown_product"],
      ["/line_items/2/product_id", "currency_mismatch"],
      ["/line_items/3/product_id", "unknown_product"]
    ])
    // In the order's own currency the EUR product is fine, and the USD one is not.
    expect(faultsOf(acceptOrder(7, draft({ currency: "EUR", line_items: [{ product_id: 3, quantity: 1 }, { product_id: 1, quantity: 1 }] }), v3, context({ products })))).toEqual([
      ["/line_items/1/product_id", "currency_mismatch"]
    ])
  })
})
