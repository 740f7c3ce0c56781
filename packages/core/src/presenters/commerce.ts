import { formatTimestampV3 } from "../domain/timestamp.js"
import type { StoredOrder } from "../services/orders.js"
import type { StoredProduct } from "../services/products.js"

/** `data` of a v3 product write. */
export const productView = (product: StoredProduct) => ({
  object: "product" as const,
  id: product.id,
  customiser_id: product.customiser_id,
  integration_id: product.integration_id,
  store_product_id: product.store_product_id,
  title: product.title,
  price_amount: product.price_amount,
  currency: product.currency,
  width_cm: product.details.width_cm ?? null,
  height_cm: product.details.height_cm ?? null,
  customisations: product.details.customisations ?? [],
  artwork: product.details.artwork ?? {},
  created_at: formatTimestampV3(product.created_at)
})

/** `data` of a v3 order write: the stored projection, whatever generation wrote it. */
export const orderView = (order: StoredOrder) => ({
  object: "order" as const,
  id: order.id,
  status: order.status,
  integration_id: order.integration_id,
  store_order_id: order.store_order_id,
  store_order_number: order.store_order_number,
  total_amount: order.total_amount,
  currency: order.currency,
  shipping_method: order.shipping_method,
  customer: order.customer,
  billing_address: order.billing_address,
  shipping_address: order.shipping_address,
  line_items: order.line_items,
  created_at: formatTimestampV3(order.created_at)
})
