import { describe, expect, it } from "vitest"
import {
  type EnumDefinition,
  FinishKind,
  HeightMeasurementMode,
  LetterPricingMethod,
  PricingModel,
  ProductFamily,
  SelectionMode,
  ShippingCalculation,
  SignCategory,
  SizingStrategy
} from "../../src/domain/enums.js"

type Definition = EnumDefinition<string, string>

// canonical → every legacy spelling, default first (straight from the documented enumeration tables).
const TABLES: ReadonlyArray<readonly [string, Definition, ReadonlyArray<readonly [string, ReadonlyArray<string>]>]> = [
  [
    "pricing_model",
    PricingModel,
    [
      ["simple_letter", ["FIXED_WIDTH"]],
      ["advanced_letter", ["MATERIAL_LENGTH"]],
      ["frame_fit", ["FRAME_FIT"]],
      ["legacy_fixed_height", ["FIXED_HEIGHT"]]
    ]
  ],
  [
    "product_family",
    ProductFamily,
    [
      ["neon", ["NEON"]],
      ["channel_letter", ["CHANNEL"]],
      ["metal_cut_out", ["CUTOUT_METAL"]]
    ]
  ],
  [
    "selection_mode",
    SelectionMode,
    [
      ["single_style", ["SINGLE"]],
      ["per_word", ["MULTI"]]
    ]
  ],
  [
    "sign_category",
    SignCategory,
    [
      ["neon", ["NEON"]],
      ["acrylic_channel_letter", ["ACRYLIC"]],
      ["metal_channel_letter", ["METAL"]],
      ["metal_cut_out", ["CUTOUT_METAL"]],
      ["stencil", ["STENCIL"]],
      ["lightbox", ["LIGHTBOX"]],
      ["wood_letter", ["WOOD"]],
      ["aluminium_plate", ["ALUMINIUM"]],
      ["braille_sign", ["BRAILLE"]],
      ["wood_frame", ["WOOD_FRAME"]]
    ]
  ],
  [
    "finish_kind",
    FinishKind,
    [
      ["colour", ["COLOUR"]],
      ["texture", ["TEXTURE"]]
    ]
  ],
  [
    "sizing_strategy",
    SizingStrategy,
    [
      ["fixed_width", ["WIDTH", "DYNAMIC"]],
      ["fixed_height", ["HEIGHT", "FIXED"]]
    ]
  ],
  [
    "height_measurement_mode",
    HeightMeasurementMode,
    [
      ["line_height", ["LINE_HEIGHT"]],
      ["letter_height", ["LETTER_HEIGHT"]]
    ]
  ],
  [
    "letter_pricing_method",
    LetterPricingMethod,
    [
      ["material_length", ["material_length"]],
      ["fixed_letter", ["fixed_letter"]]
    ]
  ],
  [
    "calculation",
    ShippingCalculation,
    [
      ["physical", ["physical"]],
      ["volumetric", ["volumetric"]]
    ]
  ]
]

describe.each(TABLES)("%s", (name, definition, table) => {
  it("lists exactly the documented canonical values and legacy spellings", () => {
    expect(definition.name).toBe(name)
    expect(definition.values).toEqual(table.map(([canonical]) => canonical))
    expect(definition.legacyValues).toEqual(table.flatMap(([, legacy]) => legacy))
  })

  it.each(table)("maps %s to its default legacy spelling and back", (canonical, legacy) => {
    expect(definition.toLegacy(canonical)).toEqual({ value: legacy[0], known: true })
    for (const spelling of legacy) {
      expect(definition.toCanonical(spelling)).toEqual({ value: canonical, known: true })
      expect(definition.isLegacy(spelling)).toBe(true)
    }
    expect(definition.isCanonical(canonical)).toBe(true)
  })

  it("preserves unfamiliar values on reads instead of throwing", () => {
    expect(definition.toLegacy("brand_new_value")).toEqual({ value: "brand_new_value", known: false })
    expect(definition.toCanonical("BRAND_NEW_VALUE")).toEqual({ value: "BRAND_NEW_VALUE", known: false })
    expect(definition.toCanonical("")).toEqual({ value: "", known: false })
    expect(definition.isCanonical(42)).toBe(false)
    expect(definition.isLegacy(null)).toBe(false)
  })

  it("does not treat inherited object members as values", () => {
    expect(definition.toCanonical("constructor")).toEqual({ value: "constructor", known: false })
    expect(definition.toLegacy("toString")).toEqual({ value: "toString", known: false })
  })
})

describe("sizing_strategy preferred spellings", () => {
  it.each([
    ["fixed_width", "DYNAMIC", "DYNAMIC"],
    ["fixed_width", "WIDTH", "WIDTH"],
    ["fixed_height", "FIXED", "FIXED"],
    ["fixed_height", "HEIGHT", "HEIGHT"],
    // A preferred spelling of another value is ignored: the default is safer than a wrong meaning.
    ["fixed_width", "FIXED", "WIDTH"],
    ["fixed_height", "DYNAMIC", "HEIGHT"],
    ["fixed_height", "nonsense", "HEIGHT"]
  ])("%s with preferred %s gives %s", (canonical, preferred, expected) => {
    expect(SizingStrategy.toLegacy(canonical, preferred)).toEqual({ value: expected, known: true })
  })
})

describe("writable values", () => {
  it("excludes the retired pricing model from writes in both spellings", () => {
    expect(PricingModel.writableValues).toEqual(["simple_letter", "advanced_letter", "frame_fit"])
    expect(PricingModel.writableLegacyValues).toEqual(["FIXED_WIDTH", "MATERIAL_LENGTH", "FRAME_FIT"])
  })

  it("keeps every other enumeration fully writable", () => {
    for (const [, definition] of TABLES.filter(([name]) => name !== "pricing_model")) {
      expect(definition.writableValues).toEqual(definition.values)
      expect(definition.writableLegacyValues).toEqual(definition.legacyValues)
    }
  })

  it.each([
    ["simple_letter", undefined],
    ["frame_fit", undefined],
    ["legacy_fixed_height", "is read-only"],
    ["FIXED_WIDTH", "is not a supported value"],
    ["bogus", "is not a supported value"]
  ])("checkWrite(%s)", (value, reason) => {
    const error = PricingModel.checkWrite(value, ["pricing_model"])
    if (reason === undefined) {
      expect(error).toBeUndefined()
    } else {
      expect(error).toMatchObject({
        pointer: "/pricing_model",
        code: "unsupported_value",
        allowed_values: ["simple_letter", "advanced_letter", "frame_fit"]
      })
      expect(error?.detail).toContain(reason)
    }
  })

  it.each([
    ["WIDTH", true],
    ["DYNAMIC", true],
    ["HEIGHT", true],
    ["FIXED", true],
    ["fixed_width", false]
  ])("checkLegacyWrite of height_strategy %s accepted: %s", (value, accepted) => {
    const error = SizingStrategy.checkLegacyWrite(value, ["sizes", 3, "height_strategy"])
    if (accepted) expect(error).toBeUndefined()
    else
      expect(error).toMatchObject({
        pointer: "/sizes/3/height_strategy",
        code: "unsupported_value",
        allowed_values: ["WIDTH", "DYNAMIC", "HEIGHT", "FIXED"]
      })
  })

  it("reports a non-string as invalid_type", () => {
    expect(FinishKind.checkWrite(7, ["finish_kind"])).toMatchObject({ pointer: "/finish_kind", code: "invalid_type" })
    expect(FinishKind.checkLegacyWrite(null, ["finish_kind"])).toMatchObject({ code: "invalid_type" })
  })

  it("rejects FIXED_HEIGHT on legacy writes as read-only", () => {
    const error = PricingModel.checkLegacyWrite("FIXED_HEIGHT", ["price_type"])
    expect(error).toMatchObject({ code: "unsupported_value", allowed_values: ["FIXED_WIDTH", "MATERIAL_LENGTH", "FRAME_FIT"] })
    expect(error?.detail).toContain("read-only")
  })
})
