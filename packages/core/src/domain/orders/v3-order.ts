import { Schema } from "effect"
import { CurrencyCode, NonNegativeInt, optionalNullable, PositiveInt } from "./fields.js"

/** v3 order `customer`: every field an optional, nullable string. */
export const V3Customer = Schema.Struct({
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  phone: optionalNullable(Schema.String)
})
/** Decoded v3 order customer. */
export type V3Customer = typeof V3Customer.Type

/**
 * v3 billing or shipping address. `company`, and every member the v2 order defines as
 * nullable (`email`, `phone`, `address_2`), accept null, so a translated v2 order is accepted.
 */
export const V3Address = Schema.Struct({
  first_name: Schema.optionalKey(Schema.String),
  last_name: Schema.optionalKey(Schema.String),
  company: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  phone: optionalNullable(Schema.String),
  address_1: Schema.optionalKey(Schema.String),
  address_2: optionalNullable(Schema.String),
  city: Schema.optionalKey(Schema.String),
  province: Schema.optionalKey(Schema.String),
  postcode: Schema.optionalKey(Schema.String),
  country: Schema.optionalKey(Schema.String)
})
/** Decoded v3 address. */
export type V3Address = typeof V3Address.Type

/** v3 line item: a v3 product id and a quantity; the price comes from the product. */
export const V3LineItem = Schema.Struct({
  product_id: PositiveInt,
  quantity: PositiveInt
})
/** Decoded v3 line item. */
export type V3LineItem = typeof V3LineItem.Type

/** Body of `POST /api/v3/orders`. */
export const V3OrderRequest = Schema.Struct({
  integration_id: PositiveInt,
  store_order_id: Schema.optionalKey(Schema.String),
  store_order_number: Schema.optionalKey(Schema.String),
  total_amount: NonNegativeInt,
  currency: Schema.optionalKey(CurrencyCode),
  shipping_method: Schema.optionalKey(Schema.String),
  customer: Schema.optionalKey(V3Customer),
  billing_address: Schema.optionalKey(V3Address),
  shipping_address: Schema.optionalKey(V3Address),
  line_items: Schema.optionalKey(Schema.Array(V3LineItem))
})
/** Decoded v3 order write request. */
export type V3OrderRequest = typeof V3OrderRequest.Type
