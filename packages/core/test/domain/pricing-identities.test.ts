import { describe, expect, it } from "vitest"
import {
  type CurrentPricing,
  EMPTY_PRICING_CONTENT,
  type PricingContent,
  decidePricingPatchV3,
  decidePricingPutV2,
  decidePricingPutV3,
  pricingReadV2,
  pricingReadV3,
  restorePricingIds,
  validatePricingV2,
  validatePricingV3
} from "../../src/domain/pricing/index.js"

const header = { pricingModel: "simple_letter", currency: "GBP", customiserId: 7 }

const current = (content: PricingContent, lastPricingId: number): CurrentPricing => ({ header, content, lastPricingId })

const accepted = (outcome: ReturnType<typeof decidePricingPutV3>) => {
  if (!outcome.ok) throw new Error(`expected the write to be accepted: ${JSON.stringify(outcome.errors)}`)
  return outcome
}

const faults = (outcome: { readonly ok: boolean; readonly errors?: ReadonlyArray<{ pointer?: string; code: string }> }) => {
  if (outcome.ok) throw new Error("expected the write to be refused")
  return (outcome.errors ?? []).map(({ pointer, code }) => [pointer, code])
}

// Stored: sizes 1 and 2, price list 3; the counter last gave out 5 (ids 4 and 5 were deleted since).
const stored: PricingContent = {
  sizes: [
    { size_id: 1, client_key: "small", name: "Small" },
    { size_id: 2, client_key: "large", name: "Large" }
  ],
  base_pricing: { mode: "included_in_price_lists", rows: [{ size_id: 1, base_price: 10 }] },
  price_lists: [{ price_list_id: 3, name: "Standard", rows: [{ size_id: 2, price_per_cm: 1 }] }],
  sheet_pricing: null
}
const storedNow = current(stored, 5)

describe("ids the server assigns", () => {
  it("gives every size and price list written without an id the next ids of the counter, in document order", () => {
    const outcome = accepted(decidePricingPutV3(
      {
        sizes: [{ name: "A" }, { size_id: null, name: "B" }],
        price_lists: [{ name: "L", rows: [] }]
      },
      current(EMPTY_PRICING_CONTENT, 0)
    ))
    expect(outcome.content.sizes).toEqual([{ size_id: 1, name: "A" }, { size_id: 2, name: "B" }])
    expect(outcome.content.price_lists).toEqual([{ price_list_id: 3, name: "L", rows: [] }])
    expect(outcome.lastPricingId).toBe(3)
  })

  it("keeps the id an element was read with, and never reuses the id of a deleted element", () => {
    const read = pricingReadV3(stored, header)
    const outcome = accepted(decidePricingPutV3(
      { ...read, sizes: [{ name: "New" }, ...(read.sizes ?? []).slice(0, 1)], price_lists: [] },
      storedNow
    ))
    // Size 2 and list 3 are deleted; the new size draws 6, after the 5 the counter already gave out.
    expect(outcome.content.sizes?.map((size) => size.size_id)).toEqual([6, 1])
    expect(outcome.lastPricingId).toBe(6)
    const again = accepted(decidePricingPutV3({ sizes: [{ name: "Other" }] }, current(outcome.content, outcome.lastPricingId)))
    expect(again.content.sizes).toEqual([{ size_id: 7, name: "Other" }])
  })

  it("a write that assigns nothing leaves the counter where it was", () => {
    expect(accepted(decidePricingPutV3(pricingReadV3(stored, header), storedNow)).lastPricingId).toBe(5)
  })

  it("v2 gives new price lists a pricing_id, shown to v2 and v3 readers alike", () => {
    const outcome = accepted(decidePricingPutV2(
      {
        pricing: {
          sizes: [{ size_id: 1, name: "Small" }, { name: "Medium" }],
          base_pricing: { mode: "included_in_price_lists", rows: [] },
          price_lists: [{ pricing_id: 3, name: "Standard", rows: [] }, { name: "Sale", rows: [] }]
        }
      },
      storedNow
    ))
    const v2 = pricingReadV2(outcome.content, header, outcome.legacySpellings)
    expect(v2.sizes?.map((size) => size.size_id)).toEqual([1, 6])
    expect(v2.price_lists?.map((list) => list.pricing_id)).toEqual([3, 7])
    expect(outcome.content.price_lists?.map((list) => list.price_list_id)).toEqual([3, 7])
  })

  it("a merge patch keeps the ids of what it leaves in place and gives new elements new ones", () => {
    const outcome = accepted(decidePricingPatchV3({ price_lists: [{ name: "Only", rows: [] }] }, storedNow))
    expect(outcome.content.sizes?.map((size) => size.size_id)).toEqual([1, 2])
    expect(outcome.content.price_lists).toEqual([{ price_list_id: 6, name: "Only", rows: [] }])
  })
})

describe("ids a write names", () => {
  it("refuses an id the stored document does not hold for that kind of element, with its pointer", () => {
    const outcome = decidePricingPutV3(
      {
        sizes: [{ size_id: 3, name: "A list's id" }, { size_id: 4, name: "Deleted" }],
        price_lists: [{ price_list_id: 1, name: "A size's id", rows: [] }]
      },
      storedNow
    )
    expect(faults(outcome)).toEqual([
      ["/price_lists/0/price_list_id", "unknown_id"],
      ["/sizes/0/size_id", "unknown_id"],
      ["/sizes/1/size_id", "unknown_id"]
    ])
  })

  it("refuses one id given to two elements, at the second", () => {
    const outcome = decidePricingPutV3(
      {
        sizes: [{ size_id: 1, name: "A" }, { size_id: 1, name: "Copy" }],
        price_lists: [{ price_list_id: 3, name: "L", rows: [] }, { price_list_id: 3, name: "M", rows: [] }]
      },
      storedNow
    )
    expect(faults(outcome)).toEqual([
      ["/price_lists/1/price_list_id", "duplicate_id"],
      ["/sizes/1/size_id", "duplicate_id"]
    ])
  })

  it("refuses a row whose size_id names no size of the written document, even one the write deletes", () => {
    const outcome = decidePricingPatchV3({ sizes: [{ size_id: 1, name: "Small" }] }, storedNow)
    expect(faults(outcome)).toEqual([["/price_lists/0/rows/0/size_id", "unknown_id"]])
    // Rows may name a size by size_key instead, which is kept as written.
    const byKey = accepted(decidePricingPutV3(
      { sizes: [{ name: "New", client_key: "new" }], base_pricing: { mode: "m", rows: [{ size_key: "new" }] } },
      storedNow
    ))
    expect(byKey.content.base_pricing?.rows).toEqual([{ size_key: "new" }])
  })

  it("v2 points into the body, with v2 names", () => {
    const body = {
      pricing: {
        sizes: [{ size_id: 9, name: "S" }],
        base_pricing: { mode: "m", rows: [{ size_id: 2 }] },
        price_lists: [{ pricing_id: 1, name: "L", rows: [] }]
      }
    }
    expect(faults(decidePricingPutV2(body, storedNow))).toEqual([
      ["/pricing/base_pricing/rows/0/size_id", "unknown_id"],
      ["/pricing/price_lists/0/pricing_id", "unknown_id"],
      ["/pricing/sizes/0/size_id", "unknown_id"]
    ])
  })

  it("reports id faults together with the document's other faults", () => {
    const identities = { sizeIds: new Set<number>(), priceListIds: new Set<number>() }
    const v3 = validatePricingV3({ sizes: [{ size_id: 1 }] }, { ...header, identities })
    expect(faults(v3)).toEqual([["/sizes/0/name", "required"], ["/sizes/0/size_id", "unknown_id"]])
    const v2 = validatePricingV2({ pricing: { sizes: [], price_lists: [{ pricing_id: 2, name: "L", rows: [] }] } }, { ...header, identities })
    expect(faults(v2)).toEqual([["/pricing/base_pricing", "required"], ["/pricing/price_lists/0/pricing_id", "unknown_id"]])
  })
})

describe("restorePricingIds (documents stored before ids were assigned)", () => {
  it("keeps positive ids unique among their kind and gives every other element a new one after the largest kept", () => {
    const restored = restorePricingIds({
      sizes: [
        { size_id: 4, name: "Kept" },
        { name: "None" },
        { size_id: 4, name: "Duplicate" },
        { size_id: 0, name: "Zero" },
        { size_id: -2, name: "Negative" }
      ],
      price_lists: [{ price_list_id: 4, name: "Same number, other kind", rows: [] }, { price_list_id: null, name: "Null", rows: [] }]
    })
    expect(restored.content.sizes?.map((size) => size.size_id)).toEqual([4, 5, 6, 7, 8])
    expect(restored.content.price_lists?.map((list) => list.price_list_id)).toEqual([4, 9])
    expect(restored.lastId).toBe(9)
  })

  it("leaves a document without sizes or price lists as it is", () => {
    expect(restorePricingIds({ sheet_pricing: null })).toEqual({ content: { sheet_pricing: null }, lastId: 0 })
  })
})
