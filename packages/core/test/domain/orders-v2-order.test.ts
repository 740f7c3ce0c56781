import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { FieldError } from "../../src/domain/input/field-error.js"
import type { V2OrderContext, V2OrderRequest, V3OrderRequest as V3Order } from "../../src/domain/orders/index.js"
import { decodeRequest, V3OrderRequest, v2OrderToV3 } from "../../src/domain/orders/index.js"

const products = new Map([["ext-1", 101], ["ext-2", 102]])
const ctx: V2OrderContext = { resolveProductId: (externalId) => products.get(externalId) }

const base: V2OrderRequest = {
  integration_id: 9,
  external_id: "order-77",
  external_order_number: "#77",
  products: [{ external_id: "ext-1", quantity: 2, price: 1250 }]
}

const translate = (req: V2OrderRequest, context: V2OrderContext = ctx): V3Order => {
  const result = v2OrderToV3(req, context)
  if (Result.isFailure(result)) throw new Error(`faults: ${JSON.stringify(result.failure)}`)
  expect(Result.isSuccess(decodeRequest(V3OrderRequest)(result.success))).toBe(true)
  return result.success
}

const faultsOf = (req: V2OrderRequest): ReadonlyArray<Pick<FieldError, "pointer" | "code">> => {
  const result = v2OrderToV3(req, ctx)
  if (Result.isSuccess(result)) throw new Error("translated")
  return result.failure.map(({ pointer, code }) => ({ pointer, code }))
}

describe("v2OrderToV3", () => {
  it("renames the identifiers and resolves product references", () => {
    expect(translate(base)).toEqual({
      integration_id: 9,
      store_order_id: "order-77",
      store_order_number: "#77",
      total_amount: 2500,
      line_items: [{ product_id: 101, quantity: 2 }]
    })
  })

  it("keeps quantities and order, without merging repeated references", () => {
    const order = translate({
      ...base,
      products: [
        { external_id: "ext-2", quantity: 1, price: 100 },
        { external_id: "ext-1", quantity: 3, price: 200 },
        { external_id: "ext-2", quantity: 4, price: 100 }
      ]
    })
    expect(order.line_items).toEqual([
      { product_id: 102, quantity: 1 },
      { product_id: 101, quantity: 3 },
      { product_id: 102, quantity: 4 }
    ])
    expect(order.total_amount).toBe(100 + 600 + 400)
  })

  it("lets the migration supply the total", () => {
    expect(translate(base, { ...ctx, totalAmount: 2999 }).total_amount).toBe(2999)
  })

  it("maps shipping_line to shipping_method", () => {
    expect(translate({ ...base, shipping_line: "DHL" }).shipping_method).toBe("DHL")
  })

  it("maps the currency, normalising case, and drops a null one", () => {
    expect(translate({ ...base, currency: "gbp" }).currency).toBe("GBP")
    expect(translate({ ...base, currency: null }).currency).toBeUndefined()
    expect(faultsOf({ ...base, currency: "POUNDS" })).toEqual([{ pointer: "/currency", code: "invalid_currency" }])
  })

  it("copies the customer, nulls included", () => {
    const customer = { first_name: "Grace", last_name: "Hopper", email: null, phone: null }
    expect(translate({ ...base, customer }).customer).toEqual(customer)
    expect(translate({ ...base, customer: { email: "g@example.com" } }).customer).toEqual({ email: "g@example.com" })
  })

  it("copies addresses, leaving out a null address_2 (which v3 would also accept)", () => {
    const order = translate({
      ...base,
      billing_address: {
        first_name: "Grace", last_name: "Hopper", email: null, phone: "+1 555", address_1: "1 Navy Way",
        address_2: null, city: "Arlington", province: "VA", postcode: "22202", country: "US"
      },
      shipping_address: {
        first_name: "Grace", last_name: "Hopper", address_1: "1 Navy Way", address_2: "Suite 5",
        city: "Arlington", province: "VA", postcode: "22202", country: "US"
      }
    })
    expect(order.billing_address).toEqual({
      first_name: "Grace", last_name: "Hopper", email: null, phone: "+1 555", address_1: "1 Navy Way",
      city: "Arlington", province: "VA", postcode: "22202", country: "US"
    })
    expect(order.shipping_address).toEqual({
      first_name: "Grace", last_name: "Hopper", address_1: "1 Navy Way", address_2: "Suite 5",
      city: "Arlington", province: "VA", postcode: "22202", country: "US"
    })
  })

  it("reports unknown external ids and invalid quantities and prices with pointers", () => {
    expect(faultsOf({
      ...base,
      products: [
        { external_id: "ext-1", quantity: 0, price: 100 },
        { external_id: "missing", quantity: 1, price: -5 }
      ]
    })).toEqual([
      { pointer: "/products/0/quantity", code: "too_small" },
      { pointer: "/products/1/external_id", code: "unknown_product" },
      { pointer: "/products/1/price", code: "too_small" }
    ])
  })

  it("rejects an integration id v3 cannot accept", () => {
    expect(faultsOf({ ...base, integration_id: 0 })).toEqual([{ pointer: "/integration_id", code: "too_small" }])
  })

  it("rejects a computed total beyond the exact integer range", () => {
    expect(faultsOf({ ...base, products: [{ external_id: "ext-1", quantity: 3, price: Number.MAX_SAFE_INTEGER }] })).toEqual([
      { pointer: "/products", code: "too_large" }
    ])
  })
})
