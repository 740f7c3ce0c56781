import { Schema } from "effect"
import { HeightMeasurementMode, SizingStrategy } from "../enums.js"
import { FiniteNumber, Integer, NonNegativeInteger, NonNegativeNumber, enumString, optional, optionalNullable } from "./fields.js"
import { BasePricing, priceListCommonFields, sizeCommonFields } from "./schema-shared.js"

/** The v3 pricing document: canonical spellings, `*_cm` names, `price_list_id`, sheet `rows`. */

/** The `object` discriminator of a v3 pricing document. */
export const PRICING_OBJECT = "pricing"

/** v3 size record. */
export const SizeV3 = Schema.Struct({
  ...sizeCommonFields,
  sizing_strategy: optional(enumString(SizingStrategy.writableValues)),
  height_measurement_mode: optional(enumString(HeightMeasurementMode.writableValues))
})
/** v3 size record. */
export type SizeV3 = typeof SizeV3.Type

/** v3 price list. */
export const PriceListV3 = Schema.Struct({
  price_list_id: optionalNullable(Integer),
  ...priceListCommonFields
})
/** v3 price list. */
export type PriceListV3 = typeof PriceListV3.Type

/** v3 sheet band: every member required. */
export const SheetBandV3 = Schema.Struct({
  width_limit_cm: FiniteNumber,
  height_limit_cm: FiniteNumber,
  base_price: NonNegativeInteger,
  price_per_sq_cm: NonNegativeNumber
})
/** v3 sheet band. */
export type SheetBandV3 = typeof SheetBandV3.Type

/** v3 sheet pricing. */
export const SheetPricingV3 = Schema.Struct({ rows: Schema.Array(SheetBandV3) })
/** v3 sheet pricing. */
export type SheetPricingV3 = typeof SheetPricingV3.Type

/**
 * v3 pricing document, as read and as written. The header members (`object`, `pricing_model`,
 * `pricing_model_display_name`, `currency`, `customiser_id`) are read-only: typed here, compared
 * with the stored values by the validator. `sizes`, `base_pricing` and `price_lists` are optional
 * on v3 writes: the PUT is a full replacement, so an omitted collection means an empty one.
 */
export const PricingDocumentV3 = Schema.Struct({
  object: optional(Schema.String),
  pricing_model: optional(Schema.String),
  pricing_model_display_name: optional(Schema.String),
  currency: optional(Schema.String),
  customiser_id: optional(Integer),
  sizes: optional(Schema.Array(SizeV3)),
  base_pricing: optional(BasePricing),
  price_lists: optional(Schema.Array(PriceListV3)),
  sheet_pricing: optionalNullable(SheetPricingV3)
})
/** v3 pricing document. */
export type PricingDocumentV3 = typeof PricingDocumentV3.Type
