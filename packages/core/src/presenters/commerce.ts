import { formatTimestampV3 } from "../domain/timestamp.js"
import type { StoredOrder } from "../domain/orders/stored-order.js"
import type { StoredProduct } from "../domain/orders/stored-product.js"

/** `data` of a v3 product write. */
export const productView = (product: StoredProduct) => ({
  object: "product" as const,
  id: product.id,
  customiser_id: product.customiserId,
  integration_id: product.integrationId,
  store_product_id: product.storeProductId,
  title: product.title,
  price_amount: product.priceAmount,
  currency: product.currency,
  width_cm: product.details.width_cm ?? null,
  height_cm: product.details.height_cm ?? null,
  customisations: product.details.customisations ?? [],
  artwork: product.details.artwork ?? {},
  created_at: formatTimestampV3(product.createdAt)
})

/** `data` of a v3 order write: the stored projection, whatever generation wrote it. */
export const orderView = (order: StoredOrder) => ({
  object: "order" as const,
  id: order.id,
  status: order.status,
  integration_id: order.integrationId,
  store_order_id: order.storeOrderId,
  store_order_number: order.storeOrderNumber,
  total_amount: order.totalAmount,
  currency: order.currency,
  shipping_method: order.shippingMethod,
  customer: order.customer,
  billing_address: order.billingAddress,
  shipping_address: order.shippingAddress,
  line_items: order.lineItems.map((item) => ({
    product_id: item.productId,
    quantity: item.quantity,
    unit_price_amount: item.unitPriceAmount,
    currency: item.currency,
    title: item.title
  })),
  created_at: formatTimestampV3(order.createdAt)
})
