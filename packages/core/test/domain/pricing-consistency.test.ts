import { describe, expect, it } from "vitest"
import { validatePricingV3 } from "../../src/domain/pricing/index.js"

const storedFor = (pricingModel: string) => ({
  pricingModel,
  currency: "GBP",
  customiserId: 1,
  identities: { sizeIds: new Set<number>(), priceListIds: new Set<number>() }
})

const priceListWith = (list: object, row: object) => ({ price_lists: [{ name: "List", rows: [row], ...list }] })

// [feature, document, pointer of the offending member]
const FEATURES = {
  letterPricingMethod: [
    priceListWith({ letter_pricing_method: "material_length" }, {}),
    "/price_lists/0/letter_pricing_method"
  ],
  letterPrice: [priceListWith({}, { letter_price: { line_1: 100 } }), "/price_lists/0/rows/0/letter_price"],
  emptyLetterPrice: [priceListWith({}, { letter_price: {} }), "/price_lists/0/rows/0/letter_price"],
  pricePerLetter: [priceListWith({}, { price_per_letter: 0 }), "/price_lists/0/rows/0/price_per_letter"],
  perLineBaseRow: [
    { base_pricing: { mode: "included_in_price_lists", rows: [{ base_price: { line_1: 500 } }] } },
    "/base_pricing/rows/0/base_price"
  ],
  perLineListRow: [priceListWith({}, { base_price: { line_2: 500 } }), "/price_lists/0/rows/0/base_price"],
  areaPricing: [priceListWith({}, { price_per_sq_cm: 0.3 }), "/price_lists/0/rows/0/price_per_sq_cm"]
} as const

// Data every model may carry.
const NEUTRAL = {
  plainBasePrice: {
    base_pricing: { mode: "included_in_price_lists", rows: [{ base_price: 500 }] },
    ...priceListWith({}, { base_price: 700, width_limit_cm: 40, height_limit_cm: 30 })
  },
  nulledLetterAndArea: priceListWith(
    { letter_pricing_method: null },
    { letter_price: null, price_per_letter: null, price_per_sq_cm: null, base_price: null }
  ),
  sheetPricing: { sheet_pricing: { rows: [{ width_limit_cm: 1, height_limit_cm: 1, base_price: 1, price_per_sq_cm: 1 }] } },
  modifiers: priceListWith({}, { width_modifier: 1, height_modifier: -1, length_modifier: 2, price_per_cm: 3 })
} as const

type Feature = keyof typeof FEATURES

// Which features each model refuses (see the rules in consistency.ts).
const REFUSED: Record<"simple_letter" | "advanced_letter" | "frame_fit", ReadonlyArray<Feature>> = {
  simple_letter: [],
  advanced_letter: ["perLineBaseRow", "perLineListRow"],
  frame_fit: ["letterPricingMethod", "letterPrice", "emptyLetterPrice", "pricePerLetter", "perLineBaseRow", "perLineListRow"]
}

const CASES = (Object.keys(REFUSED) as Array<keyof typeof REFUSED>).flatMap((model) =>
  (Object.keys(FEATURES) as Array<Feature>).map((feature) => [model, feature, REFUSED[model].includes(feature)] as const)
)

describe("model consistency", () => {
  it.each(CASES)("%s with %s refused: %s", (model, feature, refused) => {
    const [document, pointer] = FEATURES[feature]
    const result = validatePricingV3(document, storedFor(model))
    if (!refused) {
      expect(result.ok).toBe(true)
      return
    }
    expect(result).toMatchObject({
      ok: false,
      code: "invalid_pricing_model",
      errors: [{ pointer, code: "invalid_pricing_model" }]
    })
  })

  it.each(
    (Object.keys(REFUSED) as Array<keyof typeof REFUSED>).flatMap((model) =>
      Object.entries(NEUTRAL).map(([name, document]) => [model, name, document] as const)
    )
  )("%s accepts %s", (model, _name, document) => {
    expect(validatePricingV3(document, storedFor(model)).ok).toBe(true)
  })

  it("reports every contradiction, one per member", () => {
    const document = {
      price_lists: [
        { name: "A", letter_pricing_method: "fixed_letter", rows: [{ letter_price: { line_1: 1 }, price_per_letter: 2 }] },
        { name: "B", rows: [{ base_price: { line_1: 1 } }, { price_per_letter: 5 }] }
      ]
    }
    const result = validatePricingV3(document, storedFor("frame_fit"))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.map(({ pointer }) => pointer)).toEqual([
      "/price_lists/0/letter_pricing_method",
      "/price_lists/0/rows/0/letter_price",
      "/price_lists/0/rows/0/price_per_letter",
      "/price_lists/1/rows/0/base_price",
      "/price_lists/1/rows/1/price_per_letter"
    ])
    expect(result.errors.every(({ detail }) => detail.includes("frame_fit"))).toBe(true)
  })
})
