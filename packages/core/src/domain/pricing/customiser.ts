import { Schema } from "effect"
import { PricingModel, ProductFamily, SelectionMode } from "../enums.js"
import { Integer } from "./fields.js"
import { formatTimestampV2, formatTimestampV3 } from "../timestamp.js"

/**
 * The customiser resource in both generations. The service's documentation leaves the v3 fields "not shown"; this is
 * the v2 record with v3 conventions (integer `id`, `object` discriminator, canonical spellings,
 * millisecond timestamps). Enum members are strings, not literal unions: stored values newer than
 * this code are passed through unchanged.
 */

/** v3 customiser. */
export const CustomiserV3 = Schema.Struct({
  object: Schema.Literal("customiser"),
  id: Integer,
  name: Schema.String,
  pricing_model: Schema.String,
  product_family: Schema.String,
  selection_mode: Schema.String,
  active: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String
})
/** v3 customiser. */
export type CustomiserV3 = typeof CustomiserV3.Type

/** v2 customiser (legacy spellings, microsecond timestamps). */
export const CustomiserV2 = Schema.Struct({
  customiser_id: Integer,
  name: Schema.String,
  price_type: Schema.String,
  product: Schema.String,
  selection_type: Schema.String,
  active: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String
})
/** v2 customiser. */
export type CustomiserV2 = typeof CustomiserV2.Type

/** Translates a v3 customiser to the v2 shape. */
export const customiserV3ToV2 = (customiser: CustomiserV3): CustomiserV2 => ({
  customiser_id: customiser.id,
  name: customiser.name,
  price_type: PricingModel.toLegacy(customiser.pricing_model).value,
  product: ProductFamily.toLegacy(customiser.product_family).value,
  selection_type: SelectionMode.toLegacy(customiser.selection_mode).value,
  active: customiser.active,
  created_at: formatTimestampV2(customiser.created_at),
  updated_at: formatTimestampV2(customiser.updated_at)
})

/** Translates a v2 customiser to the v3 shape. */
export const customiserV2ToV3 = (customiser: CustomiserV2): CustomiserV3 => ({
  object: "customiser",
  id: customiser.customiser_id,
  name: customiser.name,
  pricing_model: PricingModel.toCanonical(customiser.price_type).value,
  product_family: ProductFamily.toCanonical(customiser.product).value,
  selection_mode: SelectionMode.toCanonical(customiser.selection_type).value,
  active: customiser.active,
  created_at: formatTimestampV3(customiser.created_at),
  updated_at: formatTimestampV3(customiser.updated_at)
})

/** The stored facts of a customiser, as any storage keeps them. */
export interface CustomiserFacts {
  readonly id: number
  readonly name: string
  readonly pricingModel: string
  readonly productFamily: string
  readonly selectionMode: string
  readonly active: boolean
  readonly createdAt: Date | string
  readonly updatedAt: Date | string
}

/**
 * The v3 customiser of stored facts. Stored values are normalised to canonical spellings (older
 * rows may hold legacy ones); values unknown to this code pass through unchanged.
 */
export const customiserV3Of = (facts: CustomiserFacts): CustomiserV3 => ({
  object: "customiser",
  id: facts.id,
  name: facts.name,
  pricing_model: PricingModel.toCanonical(facts.pricingModel).value,
  product_family: ProductFamily.toCanonical(facts.productFamily).value,
  selection_mode: SelectionMode.toCanonical(facts.selectionMode).value,
  active: facts.active,
  created_at: formatTimestampV3(facts.createdAt),
  updated_at: formatTimestampV3(facts.updatedAt)
})

/**
 * The v2 customiser of stored facts (legacy spellings, microsecond timestamps): the v3 view
 * translated, with the stored timestamps handed over whole so their microseconds survive.
 */
export const customiserV2Of = (facts: CustomiserFacts): CustomiserV2 =>
  customiserV3ToV2({
    ...customiserV3Of(facts),
    created_at: formatTimestampV2(facts.createdAt),
    updated_at: formatTimestampV2(facts.updatedAt)
  })
