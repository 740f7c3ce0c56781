import { Schema } from "effect"
import { optionalNullable } from "./fields.js"

// Previous-generation shapes are reproduced as they were accepted, without the
// tighter v3 checks: translators report anything v3 cannot take, with a pointer.

/** v2 billing address: `email`, `phone` and `address_2` nullable. */
export const V2BillingAddress = Schema.Struct({
  first_name: Schema.optionalKey(Schema.String),
  last_name: Schema.optionalKey(Schema.String),
  email: optionalNullable(Schema.String),
  phone: optionalNullable(Schema.String),
  address_1: Schema.optionalKey(Schema.String),
  address_2: optionalNullable(Schema.String),
  city: Schema.optionalKey(Schema.String),
  province: Schema.optionalKey(Schema.String),
  postcode: Schema.optionalKey(Schema.String),
  country: Schema.optionalKey(Schema.String)
})
/** Decoded v2 billing address. */
export type V2BillingAddress = typeof V2BillingAddress.Type

/** v2 shipping address: the billing shape without `email` and `phone`. */
export const V2ShippingAddress = Schema.Struct({
  first_name: Schema.optionalKey(Schema.String),
  last_name: Schema.optionalKey(Schema.String),
  address_1: Schema.optionalKey(Schema.String),
  address_2: optionalNullable(Schema.String),
  city: Schema.optionalKey(Schema.String),
  province: Schema.optionalKey(Schema.String),
  postcode: Schema.optionalKey(Schema.String),
  country: Schema.optionalKey(Schema.String)
})
/** Decoded v2 shipping address. */
export type V2ShippingAddress = typeof V2ShippingAddress.Type

/** v2 customer: every field an optional, nullable string. */
export const V2Customer = Schema.Struct({
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  phone: optionalNullable(Schema.String)
})
/** Decoded v2 customer. */
export type V2Customer = typeof V2Customer.Type

/** v2 order product reference: the `external_id` returned for `product:created`. */
export const V2OrderProduct = Schema.Struct({
  external_id: Schema.String,
  quantity: Schema.Int,
  price: Schema.Int
})
/** Decoded v2 order product reference. */
export type V2OrderProduct = typeof V2OrderProduct.Type

/** Body of the deprecated `POST /api/v2/orders`. */
export const V2OrderRequest = Schema.Struct({
  integration_id: Schema.Int,
  external_id: Schema.String,
  external_order_number: Schema.String,
  currency: optionalNullable(Schema.String),
  billing_address: Schema.optionalKey(V2BillingAddress),
  shipping_address: Schema.optionalKey(V2ShippingAddress),
  shipping_line: Schema.optionalKey(Schema.String),
  customer: Schema.optionalKey(V2Customer),
  products: Schema.Array(V2OrderProduct)
})
/** Decoded v2 custom-integration order request. */
export type V2OrderRequest = typeof V2OrderRequest.Type
