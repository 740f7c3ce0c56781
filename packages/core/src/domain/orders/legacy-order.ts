import { Schema } from "effect"
import { optionalNullable } from "./fields.js"

/** Shipping address of the unversioned order: every field an optional, nullable string. */
export const LegacyShippingAddress = Schema.Struct({
  name: optionalNullable(Schema.String),
  phone: optionalNullable(Schema.String),
  address1: optionalNullable(Schema.String),
  address2: optionalNullable(Schema.String),
  city: optionalNullable(Schema.String),
  province: optionalNullable(Schema.String),
  country: optionalNullable(Schema.String),
  zip: optionalNullable(Schema.String)
})
/** Decoded unversioned shipping address. */
export type LegacyShippingAddress = typeof LegacyShippingAddress.Type

/** Body of the deprecated unversioned `POST /api/orders`; `order_total` is in major units. */
export const LegacyOrderRequest = Schema.Struct({
  order_id: Schema.String,
  order_number: Schema.String,
  order_total: Schema.optionalKey(Schema.Finite),
  order_currency: Schema.optionalKey(Schema.String),
  email: optionalNullable(Schema.String),
  products: Schema.Array(Schema.String),
  shipping_address: optionalNullable(LegacyShippingAddress),
  shipping_line: optionalNullable(Schema.String)
})
/** Decoded unversioned legacy order request. */
export type LegacyOrderRequest = typeof LegacyOrderRequest.Type
