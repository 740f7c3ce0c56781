import { type FieldError, toPointer } from "../input/field-error.js"
import type { PricingContent } from "./content.js"
import { type Path, type RawObject, member } from "./raw.js"
import {
  forEachBasePricingRow,
  forEachPriceList,
  forEachPriceListRow,
  forEachSize,
  priceListPath,
  rowPath,
  sizePath
} from "./rows.js"
import type { PriceListV3, SizeV3 } from "./schema-v3.js"

/**
 * Pricing identities (docs/pricing-ids.md). The server gives every size (`size_id`) and every
 * price list (`price_list_id`, v2 `pricing_id`) written without one a positive integer id, drawn
 * from one counter per customiser that only grows, so an id is never reused after its element is
 * deleted. An element written with the id it was read with keeps it; an id the stored document
 * does not hold for that kind of element is refused, as is one id given to two elements. Rows
 * may name a size by `size_id` (checked here against the sizes of the written document, so a
 * row never points at a size the same write deletes) or by `size_key` (the client's own key,
 * kept as written).
 */

/** The ids a write may name: those of the stored document's sizes and price lists. */
export interface PricingIdentities {
  readonly sizeIds: ReadonlySet<number>
  readonly priceListIds: ReadonlySet<number>
}

const presentIds = (ids: ReadonlyArray<number | null | undefined>): ReadonlySet<number> =>
  new Set(ids.filter((id): id is number => typeof id === "number"))

/** The identities of stored content. */
export const identitiesOf = (content: PricingContent): PricingIdentities => ({
  sizeIds: presentIds((content.sizes ?? []).map((size) => size.size_id)),
  priceListIds: presentIds((content.price_lists ?? []).map((list) => list.price_list_id))
})

// Only integers are looked up: any other value is a type fault, which the schema reports.
const integerMember = (subject: RawObject, name: string): number | undefined => {
  const value = member(subject, name)
  return typeof value === "number" && Number.isInteger(value) ? value : undefined
}

const idFaults = (
  kind: string,
  name: string,
  known: ReadonlySet<number>,
  seen: Set<number>,
  subject: RawObject,
  at: Path,
  faults: Array<FieldError>
): void => {
  const id = integerMember(subject, name)
  if (id === undefined) return
  const pointer = toPointer([...at, name])
  if (!known.has(id)) {
    faults.push({
      pointer,
      code: "unknown_id",
      detail: `No ${kind} of this customiser's pricing has ${name} ${id}; omit ${name} to add a new ${kind}.`
    })
  } else if (seen.has(id)) {
    faults.push({ pointer, code: "duplicate_id", detail: `Another ${kind} of this document already has ${name} ${id}.` })
  }
  seen.add(id)
}

/**
 * Faults for ids of the raw document that do not belong to the customiser's stored document
 * (`unknown_id`), ids given to two elements (`duplicate_id`), and rows whose `size_id` names no
 * size of the document (`unknown_id`). `priceListId` is the member's name in this generation.
 */
export const checkIdentities = (
  document: RawObject,
  base: Path,
  identities: PricingIdentities,
  priceListId: "price_list_id" | "pricing_id"
): ReadonlyArray<FieldError> => {
  const faults: Array<FieldError> = []
  const writtenSizeIds = new Set<number>()
  forEachSize(document, (size, index) =>
    idFaults("size", "size_id", identities.sizeIds, writtenSizeIds, size, sizePath(base, index), faults)
  )
  const writtenListIds = new Set<number>()
  forEachPriceList(document, (list, index) =>
    idFaults("price list", priceListId, identities.priceListIds, writtenListIds, list, priceListPath(base, index), faults)
  )
  const checkRow = (row: RawObject, at: () => Path): void => {
    const id = integerMember(row, "size_id")
    if (id === undefined || writtenSizeIds.has(id)) return
    faults.push({
      pointer: toPointer([...at(), "size_id"]),
      code: "unknown_id",
      detail: `No size of this document has size_id ${id}.`
    })
  }
  forEachBasePricingRow(document, (row, index) => checkRow(row, () => rowPath(base, undefined, index)))
  forEachPriceListRow(document, (row, list, index) => checkRow(row, () => rowPath(base, list, index)))
  return faults
}

/** Content with every element given an id, and the counter after the ids it drew. */
export interface AssignedIds {
  readonly content: PricingContent
  readonly lastId: number
}

/**
 * Gives every size and price list of validated content that has no id (absent or null) the next
 * id after `lastId`, in document order; elements with an id keep it, in place. The id leads the
 * element's members, where the documented field order puts it.
 */
export const assignPricingIds = (content: PricingContent, lastId: number): AssignedIds => {
  let last = lastId
  const next = (): number => {
    last += 1
    return last
  }
  const withSizeId = (size: SizeV3): SizeV3 => {
    if (typeof size.size_id === "number") return size
    const { size_id: _missing, ...rest } = size
    return { size_id: next(), ...rest }
  }
  const withListId = (list: PriceListV3): PriceListV3 => {
    if (typeof list.price_list_id === "number") return list
    const { price_list_id: _missing, ...rest } = list
    return { price_list_id: next(), ...rest }
  }
  const sizes = content.sizes?.map(withSizeId)
  const lists = content.price_lists?.map(withListId)
  return {
    content: {
      ...content,
      ...(sizes === undefined ? {} : { sizes }),
      ...(lists === undefined ? {} : { price_lists: lists })
    },
    lastId: last
  }
}

/**
 * Brings content stored before ids were assigned under the rules: a positive integer id unique
 * among its kind is kept (clients may hold it); any other id is replaced by a new one, and the
 * counter starts after the largest id kept. For the migration that introduced the counter.
 */
export const restorePricingIds = (content: PricingContent): AssignedIds => {
  let largest = 0
  const keep = <E>(elements: ReadonlyArray<E> | undefined, idOf: (element: E) => unknown, clear: (element: E) => E) => {
    const seen = new Set<number>()
    return elements?.map((element) => {
      const id = idOf(element)
      if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1 || seen.has(id)) return clear(element)
      seen.add(id)
      largest = Math.max(largest, id)
      return element
    })
  }
  const sizes = keep(content.sizes, (size) => size.size_id, (size) => ({ ...size, size_id: null }))
  const lists = keep(content.price_lists, (list) => list.price_list_id, (list) => ({ ...list, price_list_id: null }))
  return assignPricingIds(
    {
      ...content,
      ...(sizes === undefined ? {} : { sizes }),
      ...(lists === undefined ? {} : { price_lists: lists })
    },
    largest
  )
}
