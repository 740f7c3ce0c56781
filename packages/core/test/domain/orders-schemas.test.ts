import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeRequest,
  LegacyOrderRequest,
  LegacyProductSyncRequest,
  V2OrderRequest,
  V3OrderRequest,
  V3ProductRequest
} from "../../src/domain/orders/index.js"
import type { FieldError } from "../../src/domain/input/field-error.js"

const accepts = <A>(decode: (input: unknown) => Result.Result<A, ReadonlyArray<FieldError>>, input: unknown): A => {
  const result = decode(input)
  if (Result.isFailure(result)) throw new Error(`rejected: ${JSON.stringify(result.failure)}`)
  return result.success
}

const faults = (
  decode: (input: unknown) => Result.Result<unknown, ReadonlyArray<FieldError>>,
  input: unknown
): ReadonlyArray<Pick<FieldError, "pointer" | "code">> => {
  const result = decode(input)
  if (Result.isSuccess(result)) throw new Error("accepted")
  return result.failure.map(({ pointer, code }) => ({ pointer, code }))
}

describe("v3 order request", () => {
  const decode = decodeRequest(V3OrderRequest)
  const minimal = { integration_id: 1, total_amount: 0 }

  it("accepts null for every address member the v2 order defines as nullable", () => {
    const address = { address_1: "1 Main St", address_2: null, email: null, phone: null }
    const order = accepts(decode, { ...minimal, billing_address: address, shipping_address: { address_2: null } })
    expect(order.billing_address?.address_2).toBeNull()
    expect(order.shipping_address?.address_2).toBeNull()
  })

  it("requires only integration_id and total_amount", () => {
    expect(accepts(decode, minimal)).toEqual(minimal)
    expect(faults(decode, {})).toEqual([
      { pointer: "/integration_id", code: "required" },
      { pointer: "/total_amount", code: "required" }
    ])
  })

  it("accepts every documented field", () => {
    const full = {
      integration_id: 7,
      store_order_id: "1001",
      store_order_number: "#1001",
      total_amount: 4999,
      currency: "EUR",
      shipping_method: "Express",
      customer: { first_name: "Ada", last_name: null, email: "ada@example.com", phone: null },
      billing_address: {
        first_name: "Ada", last_name: "Lovelace", address_1: "1 Main St", address_2: "Flat 2", city: "London",
        province: "LDN", postcode: "N1 1AA", country: "GB", company: null, email: null, phone: "+44"
      },
      shipping_address: { first_name: "Ada", country: "GB" },
      line_items: [{ product_id: 3, quantity: 2 }]
    }
    expect(accepts(decode, full)).toEqual(full)
  })

  it("rejects minor-unit and currency violations with pointers", () => {
    expect(faults(decode, { ...minimal, total_amount: 19.99 })).toEqual([{ pointer: "/total_amount", code: "invalid_value" }])
    expect(faults(decode, { ...minimal, total_amount: -1 })).toEqual([{ pointer: "/total_amount", code: "too_small" }])
    expect(faults(decode, { ...minimal, currency: "usd" })).toEqual([{ pointer: "/currency", code: "invalid_currency" }])
  })

  it("allows null only where the API documents nullable", () => {
    expect(faults(decode, { ...minimal, billing_address: { city: null } })).toEqual([
      { pointer: "/billing_address/city", code: "invalid_type" }
    ])
    expect(accepts(decode, { ...minimal, shipping_address: { company: null, email: null, phone: null, address_2: null } })).toBeDefined()
  })

  it("validates line items", () => {
    expect(faults(decode, { ...minimal, line_items: [{ product_id: 1 }, { product_id: 0, quantity: 0 }] })).toEqual([
      { pointer: "/line_items/0/quantity", code: "required" },
      { pointer: "/line_items/1/product_id", code: "too_small" },
      { pointer: "/line_items/1/quantity", code: "too_small" }
    ])
  })

  it("rejects a body that is not an object", () => {
    expect(faults(decode, [])).toEqual([{ pointer: "", code: "invalid_type" }])
  })
})

describe("v3 product request", () => {
  const decode = decodeRequest(V3ProductRequest)
  const minimal = { integration_id: 1, title: "Neon sign", price_amount: 12000, currency: "USD" }

  it("requires integration_id, title, price_amount and currency", () => {
    expect(accepts(decode, minimal)).toEqual(minimal)
    expect(faults(decode, {}).map((fault) => fault.pointer)).toEqual([
      "/integration_id", "/title", "/price_amount", "/currency"
    ])
  })

  it("accepts dimensions, customisations and artwork", () => {
    const full = {
      ...minimal,
      store_product_id: "gid://shop/1",
      width_cm: 120.5,
      height_cm: 40,
      customisations: [{ key: "font_family", label: "Font family", value: "Arial" }],
      artwork: {
        custom_background_url: "https://cdn.example.com/bg.png",
        custom_background_original_url: "https://cdn.example.com/bg-original.png",
        source_file_url: "https://cdn.example.com/logo.ai",
        preview_image_url: "https://cdn.example.com/p.png",
        outline_image_url: "https://cdn.example.com/o.png",
        svg_url: "https://cdn.example.com/a.svg",
        eps_url: "https://cdn.example.com/a.eps",
        illustrator_pdf_url: "https://cdn.example.com/a.pdf",
        dxf_url: "https://cdn.example.com/a.dxf"
      }
    }
    expect(accepts(decode, full)).toEqual(full)
  })

  it("rejects non-snake_case keys, relative URLs, empty titles and negative sizes", () => {
    expect(faults(decode, {
      ...minimal,
      title: "",
      width_cm: -1,
      customisations: [{ key: "Font Family", label: "Font", value: "Arial" }],
      artwork: { svg_url: "/relative.svg" }
    })).toEqual([
      { pointer: "/title", code: "too_short" },
      { pointer: "/width_cm", code: "too_small" },
      { pointer: "/customisations/0/key", code: "invalid_key" },
      { pointer: "/artwork/svg_url", code: "invalid_url" }
    ])
  })
})

describe("v2 custom-integration order request", () => {
  const decode = decodeRequest(V2OrderRequest)
  const minimal = { integration_id: 1, external_id: "A1", external_order_number: "1001", products: [] }

  it("requires integration_id, external_id, external_order_number and products", () => {
    expect(accepts(decode, minimal)).toEqual(minimal)
    expect(faults(decode, {}).map((fault) => fault.pointer)).toEqual([
      "/integration_id", "/external_id", "/external_order_number", "/products"
    ])
  })

  it("accepts nullable currency, email, phone and address_2 as documented", () => {
    const full = {
      ...minimal,
      currency: null,
      billing_address: { first_name: "A", email: null, phone: null, address_2: null },
      shipping_address: { address_2: null, city: "Leeds" },
      shipping_line: "Standard",
      customer: { first_name: null, last_name: null, email: null, phone: null },
      products: [{ external_id: "P1", quantity: 1, price: 500 }]
    }
    expect(accepts(decode, full)).toEqual(full)
    expect(faults(decode, { ...minimal, shipping_address: { city: null } })).toEqual([
      { pointer: "/shipping_address/city", code: "invalid_type" }
    ])
  })

  it("requires every field of a product reference", () => {
    expect(faults(decode, { ...minimal, products: [{ external_id: "P1" }] })).toEqual([
      { pointer: "/products/0/quantity", code: "required" },
      { pointer: "/products/0/price", code: "required" }
    ])
  })
})

describe("unversioned legacy order request", () => {
  const decode = decodeRequest(LegacyOrderRequest)

  it("requires order_id, order_number and products", () => {
    expect(faults(decode, {}).map((fault) => fault.pointer)).toEqual(["/order_id", "/order_number", "/products"])
  })

  it("accepts a decimal total and an all-null shipping address", () => {
    const body = {
      order_id: "1", order_number: "1001", order_total: 19.99, order_currency: "USD", email: null,
      products: ["p1"],
      shipping_address: {
        name: null, phone: null, address1: null, address2: null, city: null, province: null, country: null, zip: null
      },
      shipping_line: null
    }
    expect(accepts(decode, body)).toEqual(body)
    expect(accepts(decode, { ...body, shipping_address: null })).toBeDefined()
  })

  it("rejects non-string products", () => {
    expect(faults(decode, { order_id: "1", order_number: "1", products: [1] })).toEqual([
      { pointer: "/products/0", code: "invalid_type" }
    ])
  })
})

describe("unversioned legacy product sync request", () => {
  const decode = decodeRequest(LegacyProductSyncRequest)

  it("requires product_id, cart and price_breakdown as objects", () => {
    expect(faults(decode, { product_id: "1", cart: [], price_breakdown: null })).toEqual([
      { pointer: "/cart", code: "invalid_type" },
      { pointer: "/price_breakdown", code: "invalid_type" }
    ])
  })

  it("accepts nullable paths and product_type_paths", () => {
    const body = {
      product_id: "1", cart: { text: "Hi" }, price_breakdown: { total: 10 },
      custom_background_path: null, custom_background_original_path: null, logo_original_path: null,
      product_type_paths: null
    }
    expect(accepts(decode, body)).toEqual(body)
  })
})
