import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { FieldError } from "../../src/domain/input/field-error.js"
import type { LegacyOrderContext, LegacyOrderRequest, V3OrderRequest as V3Order } from "../../src/domain/orders/index.js"
import { decodeRequest, legacyOrderToV3, splitFullName, V3OrderRequest } from "../../src/domain/orders/index.js"

const products = new Map([["legacy-a", 11], ["legacy-b", 12], ["alias-of-a", 11]])
const ctx: LegacyOrderContext = { integrationId: 4, resolveProductId: (reference) => products.get(reference) }

const base: LegacyOrderRequest = {
  order_id: "5001",
  order_number: "#5001",
  order_total: 19.99,
  order_currency: "USD",
  products: ["legacy-a"]
}

const translate = (req: LegacyOrderRequest): V3Order => {
  const result = legacyOrderToV3(req, ctx)
  if (Result.isFailure(result)) throw new Error(`faults: ${JSON.stringify(result.failure)}`)
  // Whatever the translator emits must be a valid v3 body.
  expect(Result.isSuccess(decodeRequest(V3OrderRequest)(result.success))).toBe(true)
  return result.success
}

const faultsOf = (req: LegacyOrderRequest): ReadonlyArray<FieldError> => {
  const result = legacyOrderToV3(req, ctx)
  if (Result.isSuccess(result)) throw new Error("translated")
  return result.failure
}

describe("splitFullName", () => {
  it.each([
    ["Ada Lovelace", "Ada", "Lovelace"],
    ["Ludwig van Beethoven", "Ludwig", "van Beethoven"],
    ["  Mary   Ann \t Smith  ", "Mary", "Ann Smith"],
    ["Cher", "Cher", undefined],
    ["   Cher   ", "Cher", undefined],
    ["José\u00a0García", "José", "García"],
    ["", undefined, undefined],
    ["   ", undefined, undefined]
  ])("%j → %j / %j", (name, firstName, lastName) => {
    expect(splitFullName(name)).toEqual({ firstName, lastName })
  })

  it("treats null and undefined as no name", () => {
    expect(splitFullName(null)).toEqual({ firstName: undefined, lastName: undefined })
    expect(splitFullName(undefined)).toEqual({ firstName: undefined, lastName: undefined })
  })
})

describe("legacyOrderToV3", () => {
  it("maps identifiers, the total in minor units and the currency", () => {
    expect(translate(base)).toEqual({
      integration_id: 4,
      store_order_id: "5001",
      store_order_number: "#5001",
      total_amount: 1999,
      currency: "USD",
      line_items: [{ product_id: 11, quantity: 1 }]
    })
  })

  it("converts by the currency's exponent", () => {
    expect(translate({ ...base, order_total: 1.005, order_currency: "KWD" }).total_amount).toBe(1005)
    expect(translate({ ...base, order_total: 1500, order_currency: "JPY" }).total_amount).toBe(1500)
    expect(translate({ ...base, order_total: 0, order_currency: "EUR" }).total_amount).toBe(0)
  })

  it("normalises the case of a legacy currency", () => {
    expect(translate({ ...base, order_currency: " usd " }).currency).toBe("USD")
  })

  it("maps email to customer.email and leaves the customer out when there is none", () => {
    expect(translate({ ...base, email: "ada@example.com" }).customer).toEqual({ email: "ada@example.com" })
    expect(translate({ ...base, email: null }).customer).toBeUndefined()
    expect(translate(base).customer).toBeUndefined()
  })

  it("maps shipping_line to shipping_method", () => {
    expect(translate({ ...base, shipping_line: "Express" }).shipping_method).toBe("Express")
    expect(translate({ ...base, shipping_line: null }).shipping_method).toBeUndefined()
  })

  it("maps the shipping address, splitting the name", () => {
    const order = translate({
      ...base,
      shipping_address: {
        name: "Ludwig van Beethoven",
        phone: "+43 1 234",
        address1: "Schwarzspanierstraße 15",
        address2: "Stiege 2",
        city: "Wien",
        province: "Wien",
        country: "AT",
        zip: "1090"
      }
    })
    expect(order.shipping_address).toEqual({
      first_name: "Ludwig",
      last_name: "van Beethoven",
      phone: "+43 1 234",
      address_1: "Schwarzspanierstraße 15",
      address_2: "Stiege 2",
      city: "Wien",
      province: "Wien",
      postcode: "1090",
      country: "AT"
    })
  })

  it("omits null address fields and an address with nothing left", () => {
    const order = translate({ ...base, shipping_address: { name: "Cher", address2: null, zip: "90210" } })
    expect(order.shipping_address).toEqual({ first_name: "Cher", postcode: "90210" })
    expect(translate({ ...base, shipping_address: { name: "  ", city: null } }).shipping_address).toBeUndefined()
    expect(translate({ ...base, shipping_address: null }).shipping_address).toBeUndefined()
  })

  it("counts repeated product references as quantity, in first-seen order", () => {
    const order = translate({ ...base, products: ["legacy-b", "legacy-a", "legacy-b", "alias-of-a"] })
    expect(order.line_items).toEqual([
      { product_id: 12, quantity: 2 },
      { product_id: 11, quantity: 2 }
    ])
    expect(translate({ ...base, products: [] }).line_items).toEqual([])
  })

  it("reports unknown products at their index", () => {
    expect(faultsOf({ ...base, products: ["legacy-a", "nope", "gone"] }).map((fault) => [fault.pointer, fault.code])).toEqual([
      ["/products/1", "unknown_product"],
      ["/products/2", "unknown_product"]
    ])
  })

  it("refuses to round a total with more decimals than the currency has", () => {
    expect(faultsOf({ ...base, order_total: 19.999 })).toEqual([
      expect.objectContaining({ pointer: "/order_total", code: "too_many_fraction_digits" })
    ])
    expect(faultsOf({ ...base, order_total: 10.5, order_currency: "JPY" })[0]?.code).toBe("too_many_fraction_digits")
  })

  it("rejects a negative total", () => {
    expect(faultsOf({ ...base, order_total: -1 })).toEqual([expect.objectContaining({ pointer: "/order_total", code: "too_small" })])
  })

  it("requires a total and a known currency", () => {
    const { order_total: _total, order_currency: _currency, ...bare } = base
    expect(faultsOf(bare).map((fault) => [fault.pointer, fault.code])).toEqual([
      ["/order_currency", "required"],
      ["/order_total", "required"]
    ])
    expect(faultsOf({ ...base, order_currency: "DOLLARS" }).map((fault) => [fault.pointer, fault.code])).toEqual([
      ["/order_currency", "invalid_currency"]
    ])
  })

  it("reports every fault at once", () => {
    expect(faultsOf({ ...base, order_currency: "XYZ", products: ["nope"] }).map((fault) => fault.pointer)).toEqual([
      "/order_currency",
      "/products/0"
    ])
  })
})
