import { describe, expect, it } from "vitest"
import type { FieldError } from "../../src/domain/input/field-error.js"
import { validatePricingV2, validatePricingV3 } from "../../src/domain/pricing/index.js"

const ABSENT = Symbol("absent")
type Segment = string | number

/** A deep copy of `value` with the member at `path` replaced (or removed, for ABSENT). */
const setIn = (value: unknown, path: ReadonlyArray<Segment>, replacement: unknown): unknown => {
  const [head, ...rest] = path
  if (head === undefined) return replacement
  if (Array.isArray(value)) {
    const copy = [...value]
    copy[Number(head)] = setIn(copy[Number(head)], rest, replacement)
    return copy
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  if (rest.length === 0 && replacement === ABSENT) delete copy[String(head)]
  else copy[String(head)] = setIn(copy[String(head)], rest, replacement)
  return copy
}

// The stored document holds size 1 and price list 9, the ids `validV3` was read with.
const stored = {
  pricingModel: "simple_letter",
  currency: "GBP",
  customiserId: 42,
  identities: { sizeIds: new Set([1]), priceListIds: new Set([9]) }
}

// Rows name their size by size_key, so a case that changes the size's id leaves them valid.
const validV3 = {
  object: "pricing",
  pricing_model: "simple_letter",
  pricing_model_display_name: "Simple letter",
  currency: "GBP",
  customiser_id: 42,
  sizes: [
    {
      size_id: 1,
      client_key: "small",
      name: "Small",
      description: null,
      sort_order: 0,
      char_limit: 20,
      line_limit: 2,
      min_char: 1,
      width_cm: 50,
      height_cm: 10,
      line_height_cm: 5,
      length_cm: null,
      sizing_strategy: "fixed_width",
      height_measurement_mode: "line_height",
      width_multiplier: 1.2
    }
  ],
  base_pricing: {
    mode: "included_in_price_lists",
    rows: [
      {
        size_key: "small",
        base_price: { line_1: 1000, line_2: 1500 },
        width_limit_cm: 50,
        height_limit_cm: 10,
        length_limit_cm: null
      }
    ]
  },
  price_lists: [
    {
      price_list_id: 9,
      name: "Standard",
      letter_pricing_method: "fixed_letter",
      shipping: { calculation: "volumetric", volumetric_divisor: 5000, add_weight_to_product: true },
      rows: [
        {
          size_key: "small",
          base_price: { line_1: 1000 },
          letter_price: { line_1: 200, line_10: 900 },
          price_per_cm: 1.5,
          price_per_letter: 150,
          max_price_multiplier: 3,
          width_limit_cm: 50,
          height_limit_cm: 10,
          length_limit_cm: 100,
          price_per_sq_cm: null,
          fixed_length_cm: 0,
          width_modifier: -1.5,
          height_modifier: 0,
          length_modifier: 2
        }
      ]
    }
  ],
  sheet_pricing: { rows: [{ width_limit_cm: 100, height_limit_cm: 50, base_price: 5000, price_per_sq_cm: 0.02 }] }
}

const failureOf = (result: ReturnType<typeof validatePricingV3> | ReturnType<typeof validatePricingV2>) => {
  if (result.ok) throw new Error("expected the document to be refused")
  return result
}

const expectSingleFault = (
  result: ReturnType<typeof validatePricingV3>,
  pointer: string,
  code: string
): FieldError => {
  const failure = failureOf(result)
  expect(failure.errors).toHaveLength(1)
  expect(failure.errors[0]).toMatchObject({ pointer, code })
  const [error] = failure.errors
  if (error === undefined) throw new Error("no error")
  return error
}

describe("validatePricingV3: a valid document", () => {
  it("is accepted and returned as sent", () => {
    const result = validatePricingV3(validV3, stored)
    expect(result).toEqual({ ok: true, document: validV3 })
  })

  it("may omit every optional member, including the collections and the header", () => {
    expect(validatePricingV3({}, stored)).toEqual({ ok: true, document: {} })
  })

  it("refuses every member the contract does not define, one unknown_field fault each", () => {
    let document: unknown = setIn(validV3, ["price_list"], [])
    document = setIn(document, ["sizes", 0, "colour"], "red")
    document = setIn(document, ["price_lists", 0, "shipping", "carrier"], "ups")
    document = setIn(document, ["sheet_pricing", "rows", 0, "basePrice"], 1)
    const failure = failureOf(validatePricingV3(document, stored))
    expect(failure.code).toBe("validation_failed")
    expect(failure.errors.map(({ pointer, code }) => [pointer, code])).toEqual([
      ["/price_list", "unknown_field"],
      ["/price_lists/0/shipping/carrier", "unknown_field"],
      ["/sheet_pricing/rows/0/basePrice", "unknown_field"],
      ["/sizes/0/colour", "unknown_field"]
    ])
    for (const error of failure.errors) expect(error.detail).not.toBe("")
  })

  it("takes any key in a per-line object: line keys have their own rule", () => {
    const failure = failureOf(validatePricingV3(setIn(validV3, ["base_pricing", "rows", 0, "base_price", "line_x"], 1), stored))
    expect(failure.errors.map(({ code }) => code)).toEqual(["invalid_key"])
  })
})

const S = ["sizes", 0] as const
const BP = ["base_pricing", "rows", 0] as const
const PL = ["price_lists", 0] as const
const PLR = ["price_lists", 0, "rows", 0] as const
const SB = ["sheet_pricing", "rows", 0] as const

// [path, value, expected code or null when accepted]
type ConstraintCase = readonly [ReadonlyArray<Segment>, unknown, string | null]

const NON_NEGATIVE_NUMBER = (path: ReadonlyArray<Segment>): ReadonlyArray<ConstraintCase> => [
  [path, 0, null],
  [path, 12.5, null],
  [path, null, null],
  [path, ABSENT, null],
  [path, -0.01, "too_small"],
  [path, "12", "invalid_type"],
  [path, Number.POSITIVE_INFINITY, "invalid_type"]
]

const NULLABLE_INTEGER = (path: ReadonlyArray<Segment>): ReadonlyArray<ConstraintCase> => [
  [path, 3, null],
  [path, -3, null],
  [path, null, null],
  [path, ABSENT, null],
  [path, 1.5, "invalid_type"],
  [path, "3", "invalid_type"]
]

// An id member: the id the element was read with, or none; anything else is refused.
const ID_MEMBER = (path: ReadonlyArray<Segment>, readWith: number): ReadonlyArray<ConstraintCase> => [
  [path, readWith, null],
  [path, null, null],
  [path, ABSENT, null],
  [path, readWith + 1, "unknown_id"],
  [path, -readWith, "unknown_id"],
  [path, readWith + 0.5, "invalid_type"],
  [path, String(readWith), "invalid_type"]
]

const NULLABLE_NUMBER = (path: ReadonlyArray<Segment>): ReadonlyArray<ConstraintCase> => [
  [path, -4.5, null],
  [path, null, null],
  [path, true, "invalid_type"]
]

const CONSTRAINTS: ReadonlyArray<ConstraintCase> = [
  // size record
  [[...S, "name"], ABSENT, "required"],
  [[...S, "name"], null, "invalid_type"],
  [[...S, "name"], 5, "invalid_type"],
  [[...S, "name"], "", null],
  ...ID_MEMBER([...S, "size_id"], 1),
  [[...S, "client_key"], "k", null],
  [[...S, "client_key"], null, null],
  [[...S, "client_key"], "", "too_short"],
  [[...S, "client_key"], 7, "invalid_type"],
  [[...S, "description"], null, null],
  [[...S, "description"], 3, "invalid_type"],
  ...NULLABLE_INTEGER([...S, "sort_order"]),
  [[...S, "char_limit"], 0, null],
  [[...S, "char_limit"], null, null],
  [[...S, "char_limit"], -1, "too_small"],
  [[...S, "char_limit"], 2.5, "invalid_type"],
  [[...S, "line_limit"], 1, null],
  [[...S, "line_limit"], 10, null],
  [[...S, "line_limit"], null, null],
  [[...S, "line_limit"], 0, "too_small"],
  [[...S, "line_limit"], 11, "too_large"],
  [[...S, "line_limit"], 1.5, "invalid_type"],
  [[...S, "line_limit"], 12.5, "invalid_type"],
  [[...S, "line_limit"], "2", "invalid_type"],
  [[...S, "min_char"], 0, null],
  [[...S, "min_char"], -1, "too_small"],
  [[...S, "min_char"], 0.5, "invalid_type"],
  ...NON_NEGATIVE_NUMBER([...S, "width_cm"]),
  ...NON_NEGATIVE_NUMBER([...S, "height_cm"]),
  ...NON_NEGATIVE_NUMBER([...S, "line_height_cm"]),
  ...NON_NEGATIVE_NUMBER([...S, "length_cm"]),
  ...NULLABLE_NUMBER([...S, "width_multiplier"]),
  [[...S, "sizing_strategy"], "fixed_height", null],
  [[...S, "sizing_strategy"], ABSENT, null],
  [[...S, "sizing_strategy"], "WIDTH", "unsupported_value"],
  [[...S, "sizing_strategy"], null, "invalid_type"],
  [[...S, "height_measurement_mode"], "letter_height", null],
  [[...S, "height_measurement_mode"], "LINE_HEIGHT", "unsupported_value"],
  [[...S, "height_measurement_mode"], 1, "invalid_type"],
  // base pricing
  [["base_pricing"], ABSENT, null],
  [["base_pricing"], null, "invalid_type"],
  [["base_pricing", "mode"], ABSENT, "required"],
  [["base_pricing", "mode"], "anything_new", null],
  [["base_pricing", "rows"], ABSENT, "required"],
  [["base_pricing", "rows"], [], null],
  [["base_pricing", "rows"], {}, "invalid_type"],
  ...ID_MEMBER([...BP, "size_id"], 1),
  [[...BP, "size_key"], null, null],
  [[...BP, "size_key"], 1, "invalid_type"],
  ...NON_NEGATIVE_NUMBER([...BP, "base_price"]),
  [[...BP, "base_price"], {}, null],
  [[...BP, "base_price"], [], "invalid_type"],
  [[...BP, "base_price", "line_1"], -1, "too_small"],
  [[...BP, "base_price", "line_1"], "1", "invalid_type"],
  [[...BP, "base_price", "line_11"], 1, "invalid_key"],
  [[...BP, "base_price", "line_0"], 1, "invalid_key"],
  [[...BP, "base_price", "total"], 1, "invalid_key"],
  ...NON_NEGATIVE_NUMBER([...BP, "width_limit_cm"]),
  ...NON_NEGATIVE_NUMBER([...BP, "height_limit_cm"]),
  ...NON_NEGATIVE_NUMBER([...BP, "length_limit_cm"]),
  // price lists
  [["price_lists"], ABSENT, null],
  [["price_lists"], [], null],
  [["price_lists"], "none", "invalid_type"],
  [[...PL], "list", "invalid_type"],
  ...ID_MEMBER([...PL, "price_list_id"], 9),
  [[...PL, "name"], ABSENT, "required"],
  [[...PL, "name"], 1, "invalid_type"],
  [[...PL, "rows"], ABSENT, "required"],
  [[...PL, "rows"], null, "invalid_type"],
  [[...PL, "letter_pricing_method"], "material_length", null],
  [[...PL, "letter_pricing_method"], null, null],
  [[...PL, "letter_pricing_method"], ABSENT, null],
  [[...PL, "letter_pricing_method"], "per_letter", "unsupported_value"],
  [[...PL, "shipping"], null, null],
  [[...PL, "shipping"], {}, null],
  [[...PL, "shipping"], "free", "invalid_type"],
  [[...PL, "shipping", "calculation"], "physical", null],
  [[...PL, "shipping", "calculation"], "air", "unsupported_value"],
  [[...PL, "shipping", "calculation"], null, "invalid_type"],
  [[...PL, "shipping", "volumetric_divisor"], "5000", "invalid_type"],
  [[...PL, "shipping", "add_weight_to_product"], "yes", "invalid_type"],
  // price-list rows
  ...ID_MEMBER([...PLR, "size_id"], 1),
  [[...PLR, "size_key"], 3, "invalid_type"],
  ...NON_NEGATIVE_NUMBER([...PLR, "base_price"]),
  [[...PLR, "base_price", "line_2"], -5, "too_small"],
  [[...PLR, "letter_price"], null, null],
  [[...PLR, "letter_price"], 200, "invalid_type"],
  [[...PLR, "letter_price", "line_1"], -1, "too_small"],
  [[...PLR, "letter_price", "line_1"], null, "invalid_type"],
  [[...PLR, "letter_price", "first"], 1, "invalid_key"],
  ...NON_NEGATIVE_NUMBER([...PLR, "price_per_cm"]),
  ...NON_NEGATIVE_NUMBER([...PLR, "price_per_letter"]),
  ...NON_NEGATIVE_NUMBER([...PLR, "max_price_multiplier"]),
  ...NON_NEGATIVE_NUMBER([...PLR, "width_limit_cm"]),
  ...NON_NEGATIVE_NUMBER([...PLR, "height_limit_cm"]),
  ...NON_NEGATIVE_NUMBER([...PLR, "length_limit_cm"]),
  ...NON_NEGATIVE_NUMBER([...PLR, "fixed_length_cm"]),
  ...NULLABLE_NUMBER([...PLR, "width_modifier"]),
  ...NULLABLE_NUMBER([...PLR, "height_modifier"]),
  ...NULLABLE_NUMBER([...PLR, "length_modifier"]),
  // sheet pricing
  [["sheet_pricing"], null, null],
  [["sheet_pricing"], ABSENT, null],
  [["sheet_pricing"], [], "invalid_type"],
  [["sheet_pricing", "rows"], ABSENT, "required"],
  [[...SB, "width_limit_cm"], ABSENT, "required"],
  [[...SB, "width_limit_cm"], null, "invalid_type"],
  [[...SB, "width_limit_cm"], -3, null],
  [[...SB, "height_limit_cm"], ABSENT, "required"],
  [[...SB, "height_limit_cm"], "50", "invalid_type"],
  [[...SB, "base_price"], ABSENT, "required"],
  [[...SB, "base_price"], 0, null],
  [[...SB, "base_price"], 10.5, "invalid_type"],
  [[...SB, "base_price"], -1, "too_small"],
  [[...SB, "price_per_sq_cm"], ABSENT, "required"],
  [[...SB, "price_per_sq_cm"], 0, null],
  [[...SB, "price_per_sq_cm"], -0.5, "too_small"],
  // top level
  [["sizes"], ABSENT, null],
  [["sizes"], [], null],
  [["sizes"], { 0: {} }, "invalid_type"],
  [["sizes", 0], null, "invalid_type"],
  [["customiser_id"], ABSENT, null],
  [["customiser_id"], "42", "invalid_type"]
]

const label = (path: ReadonlyArray<Segment>, value: unknown): string =>
  `/${path.join("/")} = ${value === ABSENT ? "(absent)" : JSON.stringify(value) ?? String(value)}`

describe("validatePricingV3: field constraints", () => {
  it.each(CONSTRAINTS.map(([path, value, code]) => [label(path, value), path, value, code] as const))(
    "%s",
    (_label, path, value, code) => {
      const result = validatePricingV3(setIn(validV3, path, value), stored)
      if (code === null) {
        expect(result.ok).toBe(true)
        return
      }
      const failure = failureOf(result)
      expect(failure.code).toBe("validation_failed")
      const pointer = `/${path.join("/")}`
      expect(failure.errors).toHaveLength(1)
      expect(failure.errors[0]).toMatchObject({ pointer, code })
      expect(failure.errors[0]?.detail).not.toBe("")
    }
  )

  it.each([
    [[...S, "sizing_strategy"], ["fixed_width", "fixed_height"]],
    [[...S, "height_measurement_mode"], ["line_height", "letter_height"]],
    [[...PL, "letter_pricing_method"], ["material_length", "fixed_letter"]],
    [[...PL, "shipping", "calculation"], ["physical", "volumetric"]]
  ] as const)("enum fault at /%j lists allowed_values", (path, allowed) => {
    const error = expectSingleFault(validatePricingV3(setIn(validV3, path, "nope"), stored), `/${path.join("/")}`, "unsupported_value")
    expect(error.allowed_values).toEqual(allowed)
  })
})

describe("validatePricingV3: every fault at once", () => {
  it("reports all faults of one document, in document order, each with its pointer", () => {
    let document: unknown = validV3
    document = setIn(document, ["sizes", 1], { name: "Medium", line_limit: 11 })
    document = setIn(document, ["sizes", 2], { name: "Large" })
    document = setIn(document, ["sizes", 3], { line_limit: 0, width_cm: -1 })
    document = setIn(document, ["price_lists", 0, "rows", 0, "price_per_cm"], -2)
    document = setIn(document, ["sheet_pricing", "rows", 0, "base_price"], ABSENT)
    document = setIn(document, ["currency"], "EUR")
    const failure = failureOf(validatePricingV3(document, stored))
    expect(failure.code).toBe("validation_failed")
    expect(failure.errors.map(({ pointer, code }) => [pointer, code])).toEqual([
      ["/currency", "read_only"],
      ["/price_lists/0/rows/0/price_per_cm", "too_small"],
      ["/sheet_pricing/rows/0/base_price", "required"],
      ["/sizes/1/line_limit", "too_large"],
      ["/sizes/3/line_limit", "too_small"],
      ["/sizes/3/name", "required"],
      ["/sizes/3/width_cm", "too_small"]
    ])
  })

  it.each([null, [], "pricing", 42, true, undefined])("refuses a non-object body %j at the root", (input) => {
    const failure = failureOf(validatePricingV3(input, stored))
    expect(failure).toMatchObject({ code: "validation_failed", errors: [{ pointer: "", code: "invalid_type" }] })
  })
})

describe("validatePricingV3: read-only members", () => {
  it.each([
    ["object", "pricing", null],
    ["object", "customiser", "read_only"],
    ["object", 1, "invalid_type"],
    ["pricing_model", "simple_letter", null],
    ["pricing_model", "frame_fit", "read_only"],
    ["pricing_model", "FIXED_WIDTH", "unsupported_value"],
    ["pricing_model", "legacy_fixed_height", "unsupported_value"],
    ["pricing_model", null, "invalid_type"],
    ["pricing_model_display_name", "Simple letter", null],
    ["pricing_model_display_name", "Simple Letter", "read_only"],
    ["currency", "GBP", null],
    ["currency", "EUR", "read_only"],
    ["currency", "gbp", "read_only"],
    ["customiser_id", 42, null],
    ["customiser_id", 43, "read_only"],
    ["customiser_id", 42.5, "invalid_type"]
  ] as const)("%s = %j", (name, value, code) => {
    const result = validatePricingV3(setIn(validV3, [name], value), stored)
    if (code === null) expect(result.ok).toBe(true)
    else expectSingleFault(result, `/${name}`, code)
  })

  it("accepts a stored model handed over in its legacy spelling", () => {
    expect(validatePricingV3(validV3, { ...stored, pricingModel: "FIXED_WIDTH" }).ok).toBe(true)
  })
})

describe("validatePricingV3: pricing model that cannot be written", () => {
  it.each(["legacy_fixed_height", "FIXED_HEIGHT", "some_future_model"])(
    "stored %s refuses even a valid document with invalid_pricing_model",
    (pricingModel) => {
      const failure = failureOf(validatePricingV3({ sizes: [] }, { ...stored, pricingModel }))
      expect(failure.code).toBe("invalid_pricing_model")
      expect(failure.errors).toHaveLength(1)
      expect(failure.errors[0]).toMatchObject({ pointer: "/pricing_model", code: "invalid_pricing_model" })
    }
  )

  it("still lists the document's other faults after the model fault", () => {
    const failure = failureOf(
      validatePricingV3({ sizes: [{ line_limit: 40 }] }, { ...stored, pricingModel: "legacy_fixed_height" })
    )
    expect(failure.code).toBe("invalid_pricing_model")
    expect(failure.errors.map(({ pointer, code }) => [pointer, code])).toEqual([
      ["/pricing_model", "invalid_pricing_model"],
      ["/sizes/0/line_limit", "too_large"],
      ["/sizes/0/name", "required"]
    ])
  })
})

describe("validatePricingV3: result code", () => {
  const frameFit = { ...stored, pricingModel: "frame_fit" }
  const letterList = { name: "Letters", letter_pricing_method: "fixed_letter", rows: [] }

  it("is invalid_pricing_model when model contradictions are the only faults", () => {
    const failure = failureOf(validatePricingV3({ price_lists: [letterList] }, frameFit))
    expect(failure.code).toBe("invalid_pricing_model")
  })

  it("is validation_failed when other faults come with them, and lists both", () => {
    const failure = failureOf(validatePricingV3({ price_lists: [letterList], sizes: [{}] }, frameFit))
    expect(failure.code).toBe("validation_failed")
    expect(failure.errors.map(({ code }) => code)).toEqual(["invalid_pricing_model", "required"])
  })
})

const validV2Body = {
  pricing: {
    pricing_model: "FIXED_WIDTH",
    customiser_id: 42,
    value_units: { base_price: "minor_currency_units" },
    sizes: [{ name: "Small", height_strategy: "DYNAMIC", height_measurement_mode: "LETTER_HEIGHT", line_limit: 3 }],
    base_pricing: { mode: "included_in_price_lists", rows: [{ size_key: "small", base_price: { line_1: 10 } }] },
    price_lists: [{ pricing_id: 9, name: "Standard", rows: [{ price_per_letter: 1 }] }],
    sheet_pricing: { pricings: [{ cmLimitWidth: 10, cmLimitHeight: 20, basePrice: 100, pricePerSqCm: 0.5 }] }
  }
}

describe("validatePricingV2", () => {
  it("ignores unknown members, as v2 always did, and leaves them out of the document", () => {
    const withExtras = setIn(setIn(validV2Body, ["pricing", "price_list"], []), ["pricing", "sizes", 0, "colour"], "red")
    const result = validatePricingV2(setIn(withExtras, ["future"], 1), stored)
    const { value_units: _ignored, ...expected } = validV2Body.pricing
    expect(result).toEqual({ ok: true, document: expected })
  })

  it("accepts a valid body and returns the inner document without value_units", () => {
    const result = validatePricingV2(validV2Body, stored)
    const { value_units: _ignored, ...expected } = validV2Body.pricing
    expect(result).toEqual({ ok: true, document: expected })
  })

  it.each([
    [[], null, "invalid_type", ""],
    [["pricing"], ABSENT, "required", "/pricing"],
    [["pricing"], [], "invalid_type", "/pricing"],
    [["pricing", "sizes"], ABSENT, "required", "/pricing/sizes"],
    [["pricing", "base_pricing"], ABSENT, "required", "/pricing/base_pricing"],
    [["pricing", "base_pricing", "mode"], ABSENT, "required", "/pricing/base_pricing/mode"],
    [["pricing", "base_pricing", "rows"], ABSENT, "required", "/pricing/base_pricing/rows"],
    [["pricing", "price_lists"], ABSENT, "required", "/pricing/price_lists"],
    [["pricing", "sizes", 0, "height_strategy"], "WIDTH", null, ""],
    [["pricing", "sizes", 0, "height_strategy"], "HEIGHT", null, ""],
    [["pricing", "sizes", 0, "height_strategy"], "FIXED", null, ""],
    [["pricing", "sizes", 0, "height_strategy"], "fixed_width", "unsupported_value", "/pricing/sizes/0/height_strategy"],
    [["pricing", "sizes", 0, "height_measurement_mode"], "LINE_HEIGHT", null, ""],
    [["pricing", "sizes", 0, "height_measurement_mode"], "line_height", "unsupported_value", "/pricing/sizes/0/height_measurement_mode"],
    [["pricing", "sizes", 0, "line_limit"], 0, "too_small", "/pricing/sizes/0/line_limit"],
    [["pricing", "price_lists", 0, "pricing_id"], "9", "invalid_type", "/pricing/price_lists/0/pricing_id"],
    [["pricing", "price_lists", 0, "pricing_id"], 3, "unknown_id", "/pricing/price_lists/0/pricing_id"],
    [["pricing", "sizes", 0, "size_id"], 9, "unknown_id", "/pricing/sizes/0/size_id"],
    [["pricing", "price_lists", 0, "pricing_id"], null, null, ""],
    [["pricing", "sheet_pricing"], null, null, ""],
    [["pricing", "sheet_pricing", "pricings", 0, "cmLimitWidth"], ABSENT, "required", "/pricing/sheet_pricing/pricings/0/cmLimitWidth"],
    [["pricing", "sheet_pricing", "pricings", 0, "basePrice"], 1.5, "invalid_type", "/pricing/sheet_pricing/pricings/0/basePrice"],
    [["pricing", "sheet_pricing", "pricings", 0, "pricePerSqCm"], -1, "too_small", "/pricing/sheet_pricing/pricings/0/pricePerSqCm"],
    [["pricing", "base_pricing", "rows", 0, "base_price", "line_99"], 1, "invalid_key", "/pricing/base_pricing/rows/0/base_price/line_99"],
    [["pricing", "value_units"], "anything", null, ""],
    [["pricing", "pricing_model"], null, null, ""],
    [["pricing", "pricing_model"], ABSENT, null, ""],
    [["pricing", "pricing_model"], "simple_letter", null, ""],
    [["pricing", "pricing_model"], "FRAME_FIT", "read_only", "/pricing/pricing_model"],
    [["pricing", "pricing_model"], 7, "invalid_type", "/pricing/pricing_model"],
    [["pricing", "customiser_id"], 41, "read_only", "/pricing/customiser_id"]
  ] as const)("%j = %j", (path, value, code, pointer) => {
    const result = validatePricingV2(setIn(validV2Body, path, value), stored)
    if (code === null) {
      expect(result.ok).toBe(true)
      return
    }
    const failure = failureOf(result)
    expect(failure.errors).toHaveLength(1)
    expect(failure.errors[0]).toMatchObject({ pointer, code })
  })

  it("lists allowed legacy spellings on an enum fault", () => {
    const body = setIn(validV2Body, ["pricing", "sizes", 0, "height_strategy"], "AUTO")
    const failure = failureOf(validatePricingV2(body, stored))
    expect(failure.errors[0]?.allowed_values).toEqual(["WIDTH", "DYNAMIC", "HEIGHT", "FIXED"])
  })

  it("applies model consistency with /pricing pointers", () => {
    const body = setIn(validV2Body, ["pricing", "pricing_model"], "FRAME_FIT")
    const failure = failureOf(validatePricingV2(body, { ...stored, pricingModel: "frame_fit" }))
    expect(failure.code).toBe("invalid_pricing_model")
    expect(failure.errors.map(({ pointer }) => pointer)).toEqual([
      "/pricing/base_pricing/rows/0/base_price",
      "/pricing/price_lists/0/rows/0/price_per_letter"
    ])
  })

  it("refuses writes to a legacy_fixed_height customiser", () => {
    const failure = failureOf(validatePricingV2(validV2Body, { ...stored, pricingModel: "legacy_fixed_height" }))
    expect(failure.code).toBe("invalid_pricing_model")
    expect(failure.errors[0]).toMatchObject({ pointer: "/pricing/pricing_model", code: "invalid_pricing_model" })
  })
})

describe("pricing_model on writes", () => {
  const faultAt = (errors: ReadonlyArray<FieldError>, pointer: string) => errors.find((e) => e.pointer === pointer)

  it.each([
    ["legacy_fixed_height", "unsupported_value", ["simple_letter", "advanced_letter", "frame_fit"]],
    ["bogus", "unsupported_value", ["simple_letter", "advanced_letter", "frame_fit"]],
    ["frame_fit", "read_only", undefined]
  ])("v3 %s on a simple_letter customiser: %s", (value, code, allowed) => {
    const result = validatePricingV3({ pricing_model: value }, stored)
    expect(result.ok).toBe(false)
    if (result.ok) return
    const fault = faultAt(result.errors, "/pricing_model")
    expect(fault?.code).toBe(code)
    expect(fault?.allowed_values).toEqual(allowed)
  })

  it.each([
    ["FIXED_HEIGHT", "unsupported_value", ["FIXED_WIDTH", "MATERIAL_LENGTH", "FRAME_FIT"]],
    ["legacy_fixed_height", "unsupported_value", ["simple_letter", "advanced_letter", "frame_fit"]],
    ["FRAME_FIT", "read_only", undefined]
  ])("v2 %s on a simple_letter customiser: %s", (value, code, allowed) => {
    const body = { pricing: { pricing_model: value, sizes: [], base_pricing: { mode: "m", rows: [] }, price_lists: [] } }
    const result = validatePricingV2(body, stored)
    expect(result.ok).toBe(false)
    if (result.ok) return
    const fault = faultAt(result.errors, "/pricing/pricing_model")
    expect(fault?.code).toBe(code)
    expect(fault?.allowed_values).toEqual(allowed)
  })

  it("accepts the stored model in either spelling on v2 and null", () => {
    for (const value of ["FIXED_WIDTH", "simple_letter", null]) {
      const body = { pricing: { pricing_model: value, sizes: [], base_pricing: { mode: "m", rows: [] }, price_lists: [] } }
      expect(validatePricingV2(body, stored).ok).toBe(true)
    }
  })
})
