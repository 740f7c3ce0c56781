import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { InvalidTranslationInput, orders, pricing } from "../../src/domain.js"

// The translators `@signcraft/core/domain` exports meet documents nobody validated: whatever JSON
// they get, they answer with a typed failure naming the faults, never a TypeError.

const header = { pricingModel: "simple_letter", currency: "USD", customiserId: 1 }

const throwsOnlyTyped = (run: () => unknown): void => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidTranslationInput)
    expect((error as InvalidTranslationInput).errors.length).toBeGreaterThan(0)
  }
}

const answersResult = (answer: unknown): void => {
  expect(Result.isResult(answer)).toBe(true)
}

describe("the public translators on arbitrary JSON", () => {
  it("pricingV2ToV3 and pricingV3ToV2 throw InvalidTranslationInput for null and a non-array sizes", () => {
    for (const input of [null, { sizes: 5 }, "pricing", [], { price_lists: [{ rows: 3 }] }]) {
      expect(() => pricing.pricingV2ToV3(input, header)).toThrow(InvalidTranslationInput)
      expect(() => pricing.pricingV3ToV2(input)).toThrow(InvalidTranslationInput)
    }
    const thrown = (() => {
      try {
        pricing.pricingV2ToV3({ sizes: 5 }, header)
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toMatchObject({ _tag: "InvalidTranslationInput", errors: [{ pointer: "/sizes" }] })
  })

  it("still translates a valid document", () => {
    const { document } = pricing.pricingV2ToV3({ sizes: [{ name: "Small", sizing_strategy: "WIDTH" }] }, header)
    expect(document.sizes?.[0]?.name).toBe("Small")
    expect(pricing.pricingV3ToV2({ sizes: [{ name: "Small" }] }).sizes?.[0]?.name).toBe("Small")
  })

  it("never throws anything but the typed failure, on any JSON value", () => {
    const anyJson = fc.oneof(fc.jsonValue(), fc.record({ sizes: fc.jsonValue(), price_lists: fc.jsonValue(), sheet_pricing: fc.jsonValue() }, { requiredKeys: [] }))
    fc.assert(
      fc.property(anyJson, (input) => {
        throwsOnlyTyped(() => pricing.pricingV2ToV3(input, header))
        throwsOnlyTyped(() => pricing.pricingV3ToV2(input))
      }),
      { numRuns: 500 }
    )
  })

  it("the order translators answer a Result for any JSON value, never throwing", () => {
    const anyJson = fc.oneof(fc.jsonValue(), fc.record({ line_items: fc.jsonValue(), cart: fc.jsonValue(), customer: fc.jsonValue() }, { requiredKeys: [] }))
    fc.assert(
      fc.property(anyJson, (input) => {
        answersResult(orders.v2OrderToV3(input, { resolveProductId: () => 1 }))
        answersResult(orders.legacyOrderToV3(input, { integrationId: 1, resolveProductId: () => 1 }))
        answersResult(orders.legacyProductToV3(input, { integrationId: 1, title: "", priceAmount: 0, currency: "USD" }))
      }),
      { numRuns: 500 }
    )
    expect(Result.isFailure(orders.v2OrderToV3(null, { resolveProductId: () => 1 }))).toBe(true)
  })
})
