import { type Path, type RawObject, isRawObject, member } from "./raw.js"

/**
 * Visits the sizes, price lists and priced rows of a raw (unvalidated) pricing document, skipping
 * anything malformed (the schema reports that). These walks run over thousands of rows on every
 * write, so they allocate nothing per row: visitors get indexes, and paths are built by the
 * helpers below only on a fault.
 */

const forEachObject = (value: unknown, visit: (item: RawObject, index: number) => void): void => {
  if (!Array.isArray(value)) return
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index]
    if (isRawObject(item)) visit(item, index)
  }
}

/** Path of a size. */
export const sizePath = (base: Path, index: number): Path => [...base, "sizes", index]

/** Path of a price list. */
export const priceListPath = (base: Path, list: number): Path => [...base, "price_lists", list]

/** Path of a base-pricing row (`list` undefined) or of a price-list row. */
export const rowPath = (base: Path, list: number | undefined, index: number): Path =>
  list === undefined ? [...base, "base_pricing", "rows", index] : [...priceListPath(base, list), "rows", index]

/** Visits each row of `base_pricing.rows`. */
export const forEachBasePricingRow = (document: RawObject, visit: (row: RawObject, index: number) => void): void =>
  forEachObject(member(member(document, "base_pricing"), "rows"), visit)

/** Visits each entry of `sizes`. */
export const forEachSize = (document: RawObject, visit: (size: RawObject, index: number) => void): void =>
  forEachObject(member(document, "sizes"), visit)

/** Visits each entry of `price_lists`. */
export const forEachPriceList = (document: RawObject, visit: (list: RawObject, index: number) => void): void =>
  forEachObject(member(document, "price_lists"), visit)

/** Visits each row of every price list. */
export const forEachPriceListRow = (
  document: RawObject,
  visit: (row: RawObject, list: number, index: number) => void
): void =>
  forEachPriceList(document, (list, listIndex) =>
    forEachObject(member(list, "rows"), (row, index) => visit(row, listIndex, index))
  )
