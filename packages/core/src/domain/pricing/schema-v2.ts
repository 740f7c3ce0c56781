import { Schema } from "effect"
import { HeightMeasurementMode, SizingStrategy } from "../enums.js"
import { FiniteNumber, Integer, NonNegativeInteger, NonNegativeNumber, enumString, optional, optionalNullable } from "./fields.js"
import { BasePricing, priceListCommonFields, sizeCommonFields } from "./schema-shared.js"
import { ValueUnitsV2 } from "./value-units.js"

/** The v2 pricing document: legacy spellings, `height_strategy`, `pricing_id`, sheet `pricings`. */

/** v2 size record. */
export const SizeV2 = Schema.Struct({
  ...sizeCommonFields,
  height_strategy: optional(enumString(SizingStrategy.writableLegacyValues)),
  height_measurement_mode: optional(enumString(HeightMeasurementMode.writableLegacyValues))
})
/** v2 size record. */
export type SizeV2 = typeof SizeV2.Type

/** v2 price list. */
export const PriceListV2 = Schema.Struct({
  pricing_id: optionalNullable(Integer),
  ...priceListCommonFields
})
/** v2 price list. */
export type PriceListV2 = typeof PriceListV2.Type

/** v2 sheet band: every member required. */
export const SheetBandV2 = Schema.Struct({
  cmLimitWidth: FiniteNumber,
  cmLimitHeight: FiniteNumber,
  basePrice: NonNegativeInteger,
  pricePerSqCm: NonNegativeNumber
})
/** v2 sheet band. */
export type SheetBandV2 = typeof SheetBandV2.Type

/** v2 sheet pricing. */
export const SheetPricingV2 = Schema.Struct({ pricings: Schema.Array(SheetBandV2) })
/** v2 sheet pricing. */
export type SheetPricingV2 = typeof SheetPricingV2.Type

/** v2 pricing document as read (GET `{pricing}`). `pricing_model` is a legacy spelling and nullable. */
export const PricingDocumentV2 = Schema.Struct({
  pricing_model: optionalNullable(Schema.String),
  customiser_id: optional(Integer),
  value_units: optional(ValueUnitsV2),
  sizes: optional(Schema.Array(SizeV2)),
  base_pricing: optional(BasePricing),
  price_lists: optional(Schema.Array(PriceListV2)),
  sheet_pricing: optionalNullable(SheetPricingV2)
})
/** v2 pricing document as read. */
export type PricingDocumentV2 = typeof PricingDocumentV2.Type

/**
 * v2 pricing document as written (inside the PUT body): `sizes`, `base_pricing` and `price_lists`
 * are required; `value_units` is not declared, so a client echoing it back has it ignored.
 */
export const PricingWriteDocumentV2 = Schema.Struct({
  pricing_model: optionalNullable(Schema.String),
  customiser_id: optional(Integer),
  sizes: Schema.Array(SizeV2),
  base_pricing: BasePricing,
  price_lists: Schema.Array(PriceListV2),
  sheet_pricing: optionalNullable(SheetPricingV2)
})
/** v2 pricing document as written. */
export type PricingWriteDocumentV2 = typeof PricingWriteDocumentV2.Type

/** v2 PUT body: `{pricing: {...}}`. */
export const PricingPutBodyV2 = Schema.Struct({ pricing: PricingWriteDocumentV2 })
/** v2 PUT body. */
export type PricingPutBodyV2 = typeof PricingPutBodyV2.Type
