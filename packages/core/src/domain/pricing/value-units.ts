import { Schema } from "effect"

/**
 * v2 `value_units`: constant, informational content. v3 dropped it (amounts are minor units of
 * `currency`, rates are major units per cm). The API documentation only says `price_per_sq_cm` is "a
 * currency-or-weight unit per square cm"; `currency_or_weight_units_per_sq_cm` is our spelling of it.
 */
export const VALUE_UNITS_V2 = {
  base_price: "minor_currency_units",
  letter_price: "minor_currency_units",
  price_per_letter: "minor_currency_units",
  price_per_cm: "currency_units_per_cm",
  price_per_sq_cm: "currency_or_weight_units_per_sq_cm"
} as const

/** v2 `value_units` object. */
export const ValueUnitsV2 = Schema.Struct({
  base_price: Schema.Literal(VALUE_UNITS_V2.base_price),
  letter_price: Schema.Literal(VALUE_UNITS_V2.letter_price),
  price_per_letter: Schema.Literal(VALUE_UNITS_V2.price_per_letter),
  price_per_cm: Schema.Literal(VALUE_UNITS_V2.price_per_cm),
  price_per_sq_cm: Schema.Literal(VALUE_UNITS_V2.price_per_sq_cm)
})
/** v2 `value_units` object. */
export type ValueUnitsV2 = typeof ValueUnitsV2.Type
