import { Schema } from "effect"
import { LetterPricingMethod, ShippingCalculation } from "../enums.js"
import {
  BasePriceAmount,
  FiniteNumber,
  Integer,
  LineLimit,
  NonEmptyString,
  NonNegativeInteger,
  NonNegativeNumber,
  PerLineAmounts,
  enumString,
  optional,
  optionalNullable
} from "./fields.js"

/**
 * Parts of the pricing document whose field names and spellings are identical on v2 and v3.
 * Members the API does not document as required are optional; members documented nullable also accept null.
 */

/** Size fields other than the two enum fields whose names or spellings differ between generations. */
export const sizeCommonFields = {
  size_id: optionalNullable(Integer),
  client_key: optionalNullable(NonEmptyString),
  name: Schema.String,
  description: optionalNullable(Schema.String),
  sort_order: optionalNullable(Integer),
  char_limit: optionalNullable(NonNegativeInteger),
  line_limit: optionalNullable(LineLimit),
  min_char: optionalNullable(NonNegativeInteger),
  width_cm: optionalNullable(NonNegativeNumber),
  height_cm: optionalNullable(NonNegativeNumber),
  line_height_cm: optionalNullable(NonNegativeNumber),
  length_cm: optionalNullable(NonNegativeNumber),
  width_multiplier: optionalNullable(FiniteNumber)
}

/** One base-pricing row. */
export const BasePricingRow = Schema.Struct({
  size_id: optionalNullable(Integer),
  size_key: optionalNullable(Schema.String),
  base_price: optionalNullable(BasePriceAmount),
  width_limit_cm: optionalNullable(NonNegativeNumber),
  height_limit_cm: optionalNullable(NonNegativeNumber),
  length_limit_cm: optionalNullable(NonNegativeNumber)
})
/** One base-pricing row. */
export type BasePricingRow = typeof BasePricingRow.Type

/** Base pricing: `mode` (observed `included_in_price_lists`; not closed, so any string) and its rows. */
export const BasePricing = Schema.Struct({
  mode: Schema.String,
  rows: Schema.Array(BasePricingRow)
})
/** Base pricing. */
export type BasePricing = typeof BasePricing.Type

/** One price-list row. */
export const PriceListRow = Schema.Struct({
  size_id: optionalNullable(Integer),
  size_key: optionalNullable(Schema.String),
  base_price: optionalNullable(BasePriceAmount),
  letter_price: optionalNullable(PerLineAmounts),
  price_per_cm: optionalNullable(NonNegativeNumber),
  price_per_letter: optionalNullable(NonNegativeNumber),
  max_price_multiplier: optionalNullable(NonNegativeNumber),
  width_limit_cm: optionalNullable(NonNegativeNumber),
  height_limit_cm: optionalNullable(NonNegativeNumber),
  length_limit_cm: optionalNullable(NonNegativeNumber),
  price_per_sq_cm: optionalNullable(NonNegativeNumber),
  fixed_length_cm: optionalNullable(NonNegativeNumber),
  width_modifier: optionalNullable(FiniteNumber),
  height_modifier: optionalNullable(FiniteNumber),
  length_modifier: optionalNullable(FiniteNumber)
})
/** One price-list row. */
export type PriceListRow = typeof PriceListRow.Type

/** Shipping settings of a price list. */
export const Shipping = Schema.Struct({
  calculation: optional(enumString(ShippingCalculation.writableValues)),
  volumetric_divisor: optional(FiniteNumber),
  add_weight_to_product: optional(Schema.Boolean)
})
/** Shipping settings of a price list. */
export type Shipping = typeof Shipping.Type

/** Price-list fields other than its identifier (named differently on v2 and v3). */
export const priceListCommonFields = {
  name: Schema.String,
  letter_pricing_method: optionalNullable(enumString(LetterPricingMethod.writableValues)),
  shipping: optionalNullable(Shipping),
  rows: Schema.Array(PriceListRow)
}
