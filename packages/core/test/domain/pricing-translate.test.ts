import { describe, expect, it } from "vitest"
import {
  type CustomiserV2,
  type CustomiserV3,
  type PricingDocumentV2,
  type PricingDocumentV3,
  VALUE_UNITS_V2,
  customiserV2ToV3,
  customiserV3ToV2,
  formatTimestampV2,
  formatTimestampV3,
  pricingV2ToV3,
  pricingV3ToV2,
  withPricingHeaderV3
} from "../../src/domain/pricing/index.js"

const context = { pricingModel: "advanced_letter", currency: "EUR", customiserId: 5 }

const v3: PricingDocumentV3 = {
  object: "pricing",
  pricing_model: "advanced_letter",
  pricing_model_display_name: "Advanced letter",
  currency: "EUR",
  customiser_id: 5,
  sizes: [
    { name: "A", sizing_strategy: "fixed_width", height_measurement_mode: "letter_height", line_limit: 2 },
    { name: "B", sizing_strategy: "fixed_height", height_measurement_mode: "line_height" },
    { name: "C" }
  ],
  base_pricing: { mode: "included_in_price_lists", rows: [{ size_key: "a", base_price: 100 }] },
  price_lists: [
    { price_list_id: 8, name: "P", letter_pricing_method: "material_length", shipping: null, rows: [{ price_per_cm: 2 }] },
    { name: "Q", rows: [] },
    { price_list_id: null, name: "R", rows: [] }
  ],
  sheet_pricing: { rows: [{ width_limit_cm: 10, height_limit_cm: 20, base_price: 300, price_per_sq_cm: 0.25 }] }
}

const v2: PricingDocumentV2 = {
  pricing_model: "MATERIAL_LENGTH",
  customiser_id: 5,
  value_units: VALUE_UNITS_V2,
  sizes: [
    { name: "A", height_strategy: "WIDTH", height_measurement_mode: "LETTER_HEIGHT", line_limit: 2 },
    { name: "B", height_strategy: "HEIGHT", height_measurement_mode: "LINE_HEIGHT" },
    { name: "C" }
  ],
  base_pricing: { mode: "included_in_price_lists", rows: [{ size_key: "a", base_price: 100 }] },
  price_lists: [
    { pricing_id: 8, name: "P", letter_pricing_method: "material_length", shipping: null, rows: [{ price_per_cm: 2 }] },
    { name: "Q", rows: [] },
    { pricing_id: null, name: "R", rows: [] }
  ],
  sheet_pricing: { pricings: [{ cmLimitWidth: 10, cmLimitHeight: 20, basePrice: 300, pricePerSqCm: 0.25 }] }
}

describe("pricingV3ToV2", () => {
  it("renames members, respells enums, drops v3-only header members and adds value_units", () => {
    expect(pricingV3ToV2(v3)).toEqual(v2)
  })

  it("keeps absent members absent and null sheet pricing null", () => {
    expect(pricingV3ToV2({ sheet_pricing: null })).toEqual({ value_units: VALUE_UNITS_V2, sheet_pricing: null })
    expect(pricingV3ToV2({})).toEqual({ value_units: VALUE_UNITS_V2 })
  })

  it("passes unfamiliar stored enum values through", () => {
    const result = pricingV3ToV2({
      pricing_model: "per_area",
      sizes: [{ name: "X", sizing_strategy: "fit_box", height_measurement_mode: "cap_height" }]
    })
    expect(result.pricing_model).toBe("per_area")
    expect(result.sizes).toEqual([{ name: "X", height_strategy: "fit_box", height_measurement_mode: "cap_height" }])
  })
})

describe("pricingV2ToV3", () => {
  it("renames members, respells enums and writes the full v3 header from the stored context", () => {
    expect(pricingV2ToV3(v2, context)).toEqual({ document: v3, legacySpellings: {} })
  })

  it("takes the header from the context, not from the v2 document", () => {
    const { document } = pricingV2ToV3({ pricing_model: null, customiser_id: 999, sizes: [] }, context)
    expect(document).toEqual({
      object: "pricing",
      pricing_model: "advanced_letter",
      pricing_model_display_name: "Advanced letter",
      currency: "EUR",
      customiser_id: 5,
      sizes: []
    })
  })

  it("passes unfamiliar legacy spellings through without recording them", () => {
    const result = pricingV2ToV3({ sizes: [{ name: "X", height_strategy: "AUTO" }] }, context)
    expect(result.document.sizes).toEqual([{ name: "X", sizing_strategy: "AUTO" }])
    expect(result.legacySpellings).toEqual({})
  })
})

describe("legacy spellings round trip", () => {
  const written: PricingDocumentV2 = {
    ...v2,
    sizes: [
      { name: "A", height_strategy: "DYNAMIC" },
      { name: "B", height_strategy: "FIXED" },
      { name: "C", height_strategy: "WIDTH" },
      { name: "D", height_strategy: "HEIGHT" }
    ]
  }

  it("records only non-default spellings, keyed by the v3 member's pointer", () => {
    const { document, legacySpellings } = pricingV2ToV3(written, context)
    expect(document.sizes?.map((size) => size.sizing_strategy)).toEqual([
      "fixed_width",
      "fixed_height",
      "fixed_width",
      "fixed_height"
    ])
    expect(legacySpellings).toEqual({ "/sizes/0/sizing_strategy": "DYNAMIC", "/sizes/1/sizing_strategy": "FIXED" })
  })

  it("gives a v2 client back exactly what it wrote", () => {
    const { document, legacySpellings } = pricingV2ToV3(written, context)
    expect(pricingV3ToV2(document, { legacySpellings })).toEqual(written)
  })

  it("falls back to the default spelling when a recorded one no longer fits the value", () => {
    const { document, legacySpellings } = pricingV2ToV3(written, context)
    const changed = { ...document, sizes: [{ name: "A", sizing_strategy: "fixed_height" }] }
    expect(pricingV3ToV2(changed, { legacySpellings }).sizes).toEqual([{ name: "A", height_strategy: "HEIGHT" }])
  })

  it("uses the default spellings when nothing was recorded", () => {
    const { document } = pricingV2ToV3(written, context)
    expect(pricingV3ToV2(document).sizes?.map((size) => size.height_strategy)).toEqual([
      "WIDTH",
      "HEIGHT",
      "WIDTH",
      "HEIGHT"
    ])
  })
})

describe("withPricingHeaderV3", () => {
  it("puts a stored body into read form", () => {
    expect(withPricingHeaderV3({ sizes: [], pricing_model: "stale" }, { ...context, pricingModel: "FRAME_FIT" })).toEqual({
      object: "pricing",
      pricing_model: "frame_fit",
      pricing_model_display_name: "Frame fit",
      currency: "EUR",
      customiser_id: 5,
      sizes: []
    })
  })
})

describe("timestamps", () => {
  it.each([
    [new Date(Date.UTC(2026, 6, 22, 10, 11, 12, 123)), "2026-07-22T10:11:12.123000Z", "2026-07-22T10:11:12.123Z"],
    [new Date(Date.UTC(2026, 0, 1)), "2026-01-01T00:00:00.000000Z", "2026-01-01T00:00:00.000Z"],
    ["2026-07-22T10:11:12.123456Z", "2026-07-22T10:11:12.123456Z", "2026-07-22T10:11:12.123Z"],
    ["2026-07-22T10:11:12Z", "2026-07-22T10:11:12.000000Z", "2026-07-22T10:11:12.000Z"],
    ["2026-07-22 10:11:12.5+02:00", "2026-07-22T08:11:12.500000Z", "2026-07-22T08:11:12.500Z"],
    ["2026-07-22T00:30:00.1234567-0130", "2026-07-22T02:00:00.123456Z", "2026-07-22T02:00:00.123Z"],
    ["not a timestamp", "not a timestamp", "not a timestamp"],
    ["2026-13-40T99:00:00Z", "2026-13-40T99:00:00Z", "2026-13-40T99:00:00Z"]
  ])("%s → v2 %s, v3 %s", (input, expectedV2, expectedV3) => {
    expect(formatTimestampV2(input)).toBe(expectedV2)
    expect(formatTimestampV3(input)).toBe(expectedV3)
  })

  it("throws on an invalid Date, a caller bug rather than stored data", () => {
    expect(() => formatTimestampV2(new Date(Number.NaN))).toThrow(RangeError)
  })
})

describe("customiser translators", () => {
  const customiserV3: CustomiserV3 = {
    object: "customiser",
    id: 12,
    name: "Neon name sign",
    pricing_model: "simple_letter",
    product_family: "neon",
    selection_mode: "per_word",
    active: true,
    created_at: "2026-07-22T10:11:12.123Z",
    updated_at: "2026-07-23T00:00:00.000Z"
  }
  const customiserV2: CustomiserV2 = {
    customiser_id: 12,
    name: "Neon name sign",
    price_type: "FIXED_WIDTH",
    product: "NEON",
    selection_type: "MULTI",
    active: true,
    created_at: "2026-07-22T10:11:12.123000Z",
    updated_at: "2026-07-23T00:00:00.000000Z"
  }

  it("translates v3 to v2 with legacy spellings and microsecond timestamps", () => {
    expect(customiserV3ToV2(customiserV3)).toEqual(customiserV2)
  })

  it("translates v2 to v3", () => {
    expect(customiserV2ToV3(customiserV2)).toEqual(customiserV3)
  })

  it.each([
    ["legacy_fixed_height", "FIXED_HEIGHT"],
    ["advanced_letter", "MATERIAL_LENGTH"],
    ["frame_fit", "FRAME_FIT"]
  ])("maps pricing model %s ↔ %s", (canonical, legacy) => {
    expect(customiserV3ToV2({ ...customiserV3, pricing_model: canonical }).price_type).toBe(legacy)
    expect(customiserV2ToV3({ ...customiserV2, price_type: legacy }).pricing_model).toBe(canonical)
  })

  it("preserves unfamiliar values both ways", () => {
    const odd = { ...customiserV3, pricing_model: "per_area", product_family: "hologram", selection_mode: "per_letter" }
    const back = customiserV2ToV3(customiserV3ToV2(odd))
    expect(back).toEqual(odd)
  })
})
