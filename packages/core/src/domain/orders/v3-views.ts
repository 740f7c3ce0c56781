import { Schema } from "effect"
import { V3Address, V3Customer } from "./v3-order.js"
import { V3Artwork, V3Customisation } from "./v3-product.js"

// The v3 views of products and orders, shared by the HTTP API and the agent tools' output schemas.

/** A v3 product as stored (`data` of the product write). */
export const ProductV3 = Schema.Struct({
  object: Schema.Literal("product"),
  id: Schema.Int,
  customiser_id: Schema.NullOr(Schema.Int),
  integration_id: Schema.NullOr(Schema.Int),
  store_product_id: Schema.NullOr(Schema.String),
  title: Schema.String,
  price_amount: Schema.Int,
  currency: Schema.String,
  width_cm: Schema.NullOr(Schema.Number),
  height_cm: Schema.NullOr(Schema.Number),
  customisations: Schema.Array(V3Customisation),
  artwork: V3Artwork,
  created_at: Schema.String
}).annotate({ identifier: "Product" })

/** One line of an accepted order: the price is the product's, captured on acceptance. */
export const OrderLineItemV3 = Schema.Struct({
  product_id: Schema.Int,
  quantity: Schema.Int,
  unit_price_amount: Schema.Int,
  currency: Schema.String,
  title: Schema.String
}).annotate({ identifier: "OrderLineItem" })

/** A v3 order as accepted (`data` of the order write). */
export const OrderV3 = Schema.Struct({
  object: Schema.Literal("order"),
  id: Schema.Int,
  status: Schema.Literal("received"),
  integration_id: Schema.NullOr(Schema.Int),
  store_order_id: Schema.NullOr(Schema.String),
  store_order_number: Schema.NullOr(Schema.String),
  total_amount: Schema.Int,
  currency: Schema.String,
  shipping_method: Schema.NullOr(Schema.String),
  customer: Schema.NullOr(V3Customer),
  billing_address: Schema.NullOr(V3Address),
  shipping_address: Schema.NullOr(V3Address),
  line_items: Schema.Array(OrderLineItemV3),
  created_at: Schema.String
}).annotate({ identifier: "Order" })
