import { describe, expect, it } from "vitest"
import { applyMergePatch } from "../../src/domain/input/merge-patch.js"
import { type CurrentPricing, decidePricingPatchV3, type PricingContent } from "../../src/domain/pricing/index.js"

const header = { pricingModel: "simple_letter", currency: "GBP", customiserId: 7 }
const stored: PricingContent = {
  sizes: [{ size_id: 1, client_key: "small", name: "Small" }],
  base_pricing: { mode: "included_in_price_lists", rows: [] },
  price_lists: [{ price_list_id: 2, name: "Standard", rows: [{ size_id: 1, price_per_cm: 1 }] }],
  sheet_pricing: null
}
const current: CurrentPricing = { header, content: stored, lastPricingId: 2 }

const faults = (outcome: ReturnType<typeof decidePricingPatchV3>) =>
  outcome.ok ? [] : outcome.errors.map(({ pointer, code }) => [pointer, code])

// docs/input-handling.md: a v3 write refuses every member the API does not define, so a
// misspelt member never passes for a change that was not made.
describe("a v3 pricing merge patch", () => {
  it("refuses a null for a member the contract does not define, at any depth, as it refuses any other value", () => {
    expect(faults(decidePricingPatchV3({ sheet_pricng: null }, current))).toEqual([["/sheet_pricng", "unknown_field"]])
    expect(faults(decidePricingPatchV3({ base_pricing: { mdoe: null } }, current))).toEqual([["/base_pricing/mdoe", "unknown_field"]])
    expect(faults(decidePricingPatchV3({ sheet_pricng: { a: 1 } }, current))).toEqual([["/sheet_pricng", "unknown_field"]])
  })

  it("lists it beside the document's other faults, once", () => {
    expect(faults(decidePricingPatchV3({ sheet_pricng: null, sizes: [{ name: "" }] }, current))).toEqual([
      ["/sheet_pricng", "unknown_field"],
      ...faults(decidePricingPatchV3({ sizes: [{ name: "" }] }, current))
    ])
  })

  it("accepts a null for a member the contract defines, whether the document holds it or not", () => {
    expect(decidePricingPatchV3({ sheet_pricing: null }, current).ok).toBe(true)
    const withoutSheet: CurrentPricing = { ...current, content: { ...stored, sheet_pricing: null } }
    expect(decidePricingPatchV3({ sheet_pricing: null, price_lists: [] }, withoutSheet).ok).toBe(true)
  })
})

describe("applyMergePatch's absent removals", () => {
  it("drops a null for an absent member by default, keeps it when asked, and tells of each", () => {
    const told: Array<string> = []
    const patch = { a: null, b: { c: null, d: 1 }, keep: null }
    const target = { keep: 1, b: {} }
    expect(applyMergePatch(target, patch, { onAbsentRemoval: () => told.push("x") })).toEqual({ b: { d: 1 } })
    expect(told).toHaveLength(2)
    expect(applyMergePatch(target, patch, { keepAbsentRemovals: true })).toEqual({ b: { c: null, d: 1 }, a: null })
  })
})
