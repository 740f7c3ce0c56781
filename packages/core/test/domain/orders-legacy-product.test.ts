import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { FieldError } from "../../src/domain/input/field-error.js"
import type {
  LegacyProductContext,
  LegacyProductSyncRequest,
  V3Customisation,
  V3ProductRequest as V3Product
} from "../../src/domain/orders/index.js"
import {
  cartToCustomisations,
  decodeRequest,
  legacyProductToV3,
  toSnakeCaseKey,
  V3ProductRequest
} from "../../src/domain/orders/index.js"

const ctx: LegacyProductContext = { integrationId: 3, title: "Neon: Hello", priceAmount: 15900, currency: "GBP" }

const base: LegacyProductSyncRequest = {
  product_id: "legacy-42",
  cart: { text: "Hello" },
  price_breakdown: { total: 159 }
}

const translate = (req: LegacyProductSyncRequest): V3Product => {
  const result = legacyProductToV3(req, ctx)
  if (Result.isFailure(result)) throw new Error(`faults: ${JSON.stringify(result.failure)}`)
  expect(Result.isSuccess(decodeRequest(V3ProductRequest)(result.success))).toBe(true)
  return result.success
}

const customisations = (cart: Record<string, unknown>): ReadonlyArray<V3Customisation> => {
  const result = cartToCustomisations(cart)
  if (Result.isFailure(result)) throw new Error(`faults: ${JSON.stringify(result.failure)}`)
  return result.success
}

const cartFaults = (cart: Record<string, unknown>): ReadonlyArray<Pick<FieldError, "pointer" | "code">> => {
  const result = cartToCustomisations(cart)
  if (Result.isSuccess(result)) throw new Error("mapped")
  return result.failure.map(({ pointer, code }) => ({ pointer, code }))
}

describe("toSnakeCaseKey", () => {
  it.each([
    ["fontFamily", "font_family"],
    ["font_family", "font_family"],
    ["Font Family", "font_family"],
    ["font-family", "font_family"],
    ["HTMLColour", "html_colour"],
    ["line1Text", "line1_text"],
    ["Line 1", "line_1"],
    ["  --Backing__Board-- ", "backing_board"],
    ["Größe", "gro_e"],
    ["Café", "cafe"],
    ["!!!", ""]
  ])("%j → %j", (raw, key) => {
    expect(toSnakeCaseKey(raw)).toBe(key)
  })
})

describe("cartToCustomisations", () => {
  it("turns each top-level scalar into a record with a snake_case key and a spaced label", () => {
    expect(customisations({ text: "Hello", fontFamily: "Arial", size_cm: 50, waterproof: true })).toEqual([
      { key: "text", label: "Text", value: "Hello" },
      { key: "font_family", label: "Font family", value: "Arial" },
      { key: "size_cm", label: "Size cm", value: "50" },
      { key: "waterproof", label: "Waterproof", value: "true" }
    ])
  })

  it("flattens nested objects and arrays, counting positions from 1", () => {
    expect(customisations({ font: { name: "Arial", weight: 700 }, colours: ["red", "blue"], lines: [{ text: "A" }] }))
      .toEqual([
        { key: "font_name", label: "Font name", value: "Arial" },
        { key: "font_weight", label: "Font weight", value: "700" },
        { key: "colours_1", label: "Colours 1", value: "red" },
        { key: "colours_2", label: "Colours 2", value: "blue" },
        { key: "lines_1_text", label: "Lines 1 text", value: "A" }
      ])
  })

  it("skips nulls and empty containers but keeps empty strings", () => {
    expect(customisations({ a: null, b: {}, c: [], d: "" })).toEqual([{ key: "d", label: "D", value: "" }])
  })

  it("keeps accented letters in labels", () => {
    expect(customisations({ "Größe der Schrift": "L" })).toEqual([{ key: "gro_e_der_schrift", label: "Größe der schrift", value: "L" }])
  })

  it("reports keys that fold to nothing, and collisions, with pointers into /cart", () => {
    expect(cartFaults({ "!!!": "x", fontFamily: "Arial", font_family: "Times", "a/b": { "~": 1 } })).toEqual([
      { pointer: "/cart/!!!", code: "invalid_key" },
      { pointer: "/cart/font_family", code: "duplicate_key" },
      { pointer: "/cart/a~1b/~0", code: "invalid_key" }
    ])
  })

  it("reports a nested key colliding with a flat one", () => {
    expect(cartFaults({ font_name: "Arial", font: { name: "Times" } })).toEqual([
      { pointer: "/cart/font/name", code: "duplicate_key" }
    ])
  })
})

describe("legacyProductToV3", () => {
  it("maps product_id, cart and the artwork paths; takes the rest from the context", () => {
    expect(translate({
      ...base,
      custom_background_path: "https://cdn.example.com/bg.png",
      custom_background_original_path: "https://cdn.example.com/bg-original.png",
      logo_original_path: "https://cdn.example.com/logo.ai",
      product_type_paths: { letters: "https://cdn.example.com/letters.svg" }
    })).toEqual({
      integration_id: 3,
      store_product_id: "legacy-42",
      title: "Neon: Hello",
      price_amount: 15900,
      currency: "GBP",
      customisations: [{ key: "text", label: "Text", value: "Hello" }],
      artwork: {
        custom_background_url: "https://cdn.example.com/bg.png",
        custom_background_original_url: "https://cdn.example.com/bg-original.png",
        source_file_url: "https://cdn.example.com/logo.ai"
      }
    })
  })

  it("omits null paths and leaves artwork out when none remain", () => {
    expect(translate({ ...base, logo_original_path: "https://cdn.example.com/logo.ai", custom_background_path: null }).artwork)
      .toEqual({ source_file_url: "https://cdn.example.com/logo.ai" })
    expect(translate({ ...base, custom_background_path: null }).artwork).toBeUndefined()
  })

  it("maps an empty cart to no customisations", () => {
    expect(translate({ ...base, cart: {} }).customisations).toEqual([])
  })

  it("reports paths that are not absolute URLs and cart faults together", () => {
    const result = legacyProductToV3({ ...base, cart: { "": "x" }, logo_original_path: "uploads/logo.ai" }, ctx)
    if (Result.isSuccess(result)) throw new Error("translated")
    expect(result.failure.map(({ pointer, code }) => ({ pointer, code }))).toEqual([
      { pointer: "/cart/", code: "invalid_key" },
      { pointer: "/logo_original_path", code: "invalid_url" }
    ])
  })
})
