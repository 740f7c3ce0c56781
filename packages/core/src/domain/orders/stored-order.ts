import type { ProductKind } from "./stored-product.js"
import type { V3Address, V3Customer, V3OrderRequest } from "./v3-order.js"

/** The generation an order was written through (`import`: the operator's historical import). */
export type OrderSource = "v3" | "v2" | "unversioned" | "import"

/** One line of a stored order: the product, how many, and the price captured from the product. */
export interface StoredLineItem {
  readonly productId: number
  readonly quantity: number
  /** Minor units, the product's `price_amount` when the order was accepted. */
  readonly unitPriceAmount: number
  readonly currency: string
  readonly title: string
}

/** An order as stored, in the v3 model whatever generation wrote it. */
export interface StoredOrder {
  readonly id: number
  readonly storeId: number
  readonly source: OrderSource
  readonly integrationId: number | null
  readonly status: "received"
  readonly storeOrderId: string | null
  readonly storeOrderNumber: string | null
  readonly totalAmount: number
  readonly appTotal: number
  readonly currency: string
  readonly shippingMethod: string | null
  /** As the v3 body gave it: a stored document in the wire shape. */
  readonly customer: V3Customer | null
  readonly billingAddress: V3Address | null
  readonly shippingAddress: V3Address | null
  readonly lineItems: ReadonlyArray<StoredLineItem>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/**
 * An order write in the v3 model. `integration_id` is null only for the unversioned generation,
 * whose body names no integration: its orders are recorded for any Store, integrations or not.
 */
export type OrderDraft = Omit<V3OrderRequest, "integration_id"> & { readonly integration_id: number | null }

/** How one generation's order write is checked and where its faults point. */
export interface OrderWriteOptions {
  readonly source: Exclude<OrderSource, "import">
  /** Which product kinds line items may reference (v3 and v2: modern products only). */
  readonly allowedKinds: ReadonlyArray<ProductKind>
  /** Pointer of the integration in this generation's body. */
  readonly integrationPointer: string
  /** Pointer of line item `index`'s product reference in this generation's body. */
  readonly lineItemPointer: (index: number) => string
}
