import { Result } from "effect"
import { ValidationFailed } from "../errors.js"
import type { FieldError } from "../input/field-error.js"
import { checkIntegrationUse } from "./integration-use.js"
import type { OrderDraft, OrderWriteOptions, StoredLineItem, StoredOrder } from "./stored-order.js"
import type { StoredProduct } from "./stored-product.js"

/** What an order write read before deciding: the order's id and time, and what the request names. */
export interface OrderAcceptanceContext {
  readonly orderId: number
  readonly placedAt: Date
  /** The Store's currency, the order's when the request names none. */
  readonly storeCurrency: string
  /** The integration the request names, as found by id in any Store (undefined: no such id). */
  readonly integration: { readonly storeId: number; readonly enabled: boolean } | undefined
  /** The Store's products among those the line items name. */
  readonly products: ReadonlyArray<StoredProduct>
}

/**
 * Whether an order is accepted, and the order it becomes: the integration it names must be the
 * Store's and enabled; every line item must name one of the Store's products of an allowed kind,
 * priced in the order's currency, whose price is captured into the line; the app total is the
 * sum of the lines. Every generation's order write (v3, v2, unversioned) decides here.
 */
export const acceptOrder = (
  storeId: number,
  request: OrderDraft,
  options: OrderWriteOptions,
  context: OrderAcceptanceContext
): Result.Result<StoredOrder, ValidationFailed> => {
  if (request.integration_id !== null) {
    const integration = checkIntegrationUse(context.integration, storeId, "enabled", options.integrationPointer)
    if (Result.isFailure(integration)) return Result.fail(integration.failure)
  }
  const currency = request.currency ?? context.storeCurrency
  const byId = new Map(context.products.map((product) => [product.id, product]))
  const faults: Array<FieldError> = []
  const lineItems: Array<StoredLineItem> = []
  ;(request.line_items ?? []).forEach((item, index) => {
    const product = byId.get(item.product_id)
    if (product === undefined || !options.allowedKinds.includes(product.kind)) {
      faults.push({ pointer: options.lineItemPointer(index), code: "unknown_product", detail: "No product of this Store has this id." })
    } else if (product.currency !== currency) {
      faults.push({
        pointer: options.lineItemPointer(index),
        code: "currency_mismatch",
        detail: `The product is priced in ${product.currency}; the order is in ${currency}.`
      })
    } else {
      lineItems.push({
        productId: product.id,
        quantity: item.quantity,
        unitPriceAmount: product.priceAmount,
        currency: product.currency,
        title: product.title
      })
    }
  })
  if (faults.length > 0) return Result.fail(new ValidationFailed({ errors: faults }))
  return Result.succeed({
    id: context.orderId,
    storeId,
    source: options.source,
    integrationId: request.integration_id,
    status: "received",
    storeOrderId: request.store_order_id ?? null,
    storeOrderNumber: request.store_order_number ?? null,
    totalAmount: request.total_amount,
    appTotal: lineItems.reduce((sum, item) => sum + item.unitPriceAmount * item.quantity, 0),
    currency,
    shippingMethod: request.shipping_method ?? null,
    customer: request.customer ?? null,
    billingAddress: request.billing_address ?? null,
    shippingAddress: request.shipping_address ?? null,
    lineItems,
    createdAt: context.placedAt,
    updatedAt: context.placedAt
  })
}
