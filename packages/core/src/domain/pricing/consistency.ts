import { type FieldError, toPointer } from "../input/field-error.js"
import type { WritablePricingModel } from "../enums.js"
import { type Path, type RawObject, isRawObject, isSet, member } from "./raw.js"
import { forEachBasePricingRow, forEachPriceList, forEachPriceListRow, priceListPath, rowPath } from "./rows.js"

/**
 * Model-consistency rules: data that contradicts the customiser's stored pricing model is refused
 * with code `invalid_pricing_model`, one fault per offending member. "Set" means present and not
 * null; null and absence both mean "not used", so clearing a field is always allowed.
 *
 * 1. Letter pricing on a frame: a `frame_fit` customiser prices a frame, not lettering, so no price
 *    list may set `letter_pricing_method` and no price-list row may set `letter_price` or
 *    `price_per_letter`.
 * 2. Per-line base prices: an object keyed by line needs a line count to pick from, which only
 *    fixed-width (`simple_letter`) pricing has; the API documents `base_price` as "a plain number for
 *    material length and frame fit". So `advanced_letter` and `frame_fit` may not use a per-line
 *    `base_price` (base-pricing rows and price-list rows). A plain number stays valid on
 *    `simple_letter`: it is the degenerate per-line price, the same for every line count.
 * `price_per_sq_cm` is allowed on every model: the API documents it among the members of any price-list
 *    row, and letter signs are priced by area too (backing sheets); refusing it would tighten the
 *    contract without a rule to point to.
 *
 * Whether the model can be written at all (`legacy_fixed_height`, unknown models) is `model.ts`.
 */

/** One consistency rule: a member that must not be "set" (or must not be a per-line object). */
interface Rule {
  readonly member: string
  readonly offends: (value: unknown) => boolean
  readonly detail: string
}

const letterPriceList: Rule = {
  member: "letter_pricing_method",
  offends: isSet,
  detail: "A frame_fit customiser cannot have letter price lists."
}
const letterPrice: Rule = {
  member: "letter_price",
  offends: isSet,
  detail: "A frame_fit customiser cannot have letter pricing."
}
const pricePerLetter: Rule = {
  member: "price_per_letter",
  offends: isSet,
  detail: "A frame_fit customiser cannot have letter pricing."
}
const perLineBasePrice: Rule = {
  member: "base_price",
  offends: isRawObject,
  detail: "A per-line base_price belongs to simple_letter (fixed-width) pricing; use a plain number."
}

interface ModelRules {
  readonly priceList: ReadonlyArray<Rule>
  readonly basePricingRow: ReadonlyArray<Rule>
  readonly priceListRow: ReadonlyArray<Rule>
}

const RULES: { readonly [K in WritablePricingModel]: ModelRules } = {
  simple_letter: { priceList: [], basePricingRow: [], priceListRow: [] },
  advanced_letter: { priceList: [], basePricingRow: [perLineBasePrice], priceListRow: [perLineBasePrice] },
  frame_fit: {
    priceList: [letterPriceList],
    basePricingRow: [perLineBasePrice],
    priceListRow: [letterPrice, pricePerLetter, perLineBasePrice]
  }
}

const apply = (
  rules: ReadonlyArray<Rule>,
  subject: RawObject,
  at: () => Path,
  model: WritablePricingModel,
  faults: Array<FieldError>
): void => {
  for (const rule of rules) {
    if (!rule.offends(member(subject, rule.member))) continue
    faults.push({
      pointer: toPointer([...at(), rule.member]),
      code: "invalid_pricing_model",
      detail: `${rule.detail} This customiser uses the ${model} pricing model.`
    })
  }
}

/** Faults for members of the raw document that contradict `model` (rules above). */
export const checkModelConsistency = (
  document: RawObject,
  base: Path,
  model: WritablePricingModel
): ReadonlyArray<FieldError> => {
  const rules = RULES[model]
  const faults: Array<FieldError> = []
  if (rules.priceList.length > 0) {
    forEachPriceList(document, (list, index) => apply(rules.priceList, list, () => priceListPath(base, index), model, faults))
  }
  if (rules.basePricingRow.length > 0) {
    forEachBasePricingRow(document, (row, index) =>
      apply(rules.basePricingRow, row, () => rowPath(base, undefined, index), model, faults)
    )
  }
  forEachPriceListRow(document, (row, list, index) =>
    apply(rules.priceListRow, row, () => rowPath(base, list, index), model, faults)
  )
  return faults
}
