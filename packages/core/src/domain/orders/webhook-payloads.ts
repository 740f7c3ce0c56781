import { formatTimestampV2 } from "../timestamp.js"
/** One stored file of a product (artwork, preview image). */
export interface UploadRecord {
  readonly url: string
  /** Observed value: `product_image`. */
  readonly type: string
  /** Storage path; only `order:created` exposes it. */
  readonly path: string
}

/** A finished design as the service stores it. */
export interface ProductRecord {
  readonly id: number
  readonly title: string
  readonly description: string | null
  readonly descriptionHtml: string | null
  /** Id the integrator returned for `product:created`; null until it answers. */
  readonly externalId: string | null
  readonly externalData: Readonly<Record<string, unknown>>
  /** Minor units. */
  readonly price: number
  /** Minor units; null when the product has no compare-at price. */
  readonly comparePrice: number | null
  readonly customiserId: number
  readonly logoUploadId: number | null
  readonly productImageUrl: string
  readonly uploads: ReadonlyArray<UploadRecord>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A stored billing or shipping address. */
export interface AddressRecord {
  readonly firstName: string | null
  readonly lastName: string | null
  readonly company: string | null
  readonly address1: string | null
  readonly address2: string | null
  readonly city: string | null
  /** Delivered as `state` in webhook payloads. */
  readonly province: string | null
  readonly postcode: string | null
  readonly country: string | null
  readonly phone: string | null
  readonly email: string | null
}

/** The customer of a stored order. */
export interface CustomerRecord {
  readonly firstName: string | null
  readonly lastName: string | null
  readonly phone: string | null
  readonly email: string | null
  readonly externalId: string | null
}

/** A recorded order with its products. */
export interface OrderRecord {
  readonly id: number
  /** The service's own sequential order number. */
  readonly orderNumber: number
  readonly storeOrderId: string | null
  readonly storeOrderNumber: string | null
  /** Minor units. */
  readonly totalAmount: number
  /** Minor units: the part of the order made of customised products. */
  readonly appTotal: number
  readonly currency: string
  readonly shippingMethod: string | null
  readonly billingAddress: AddressRecord | null
  readonly shippingAddress: AddressRecord | null
  readonly customer: CustomerRecord | null
  readonly products: ReadonlyArray<ProductRecord>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** `uploads[]` item of a webhook product. */
export interface UploadPayload {
  readonly url: string
  readonly type: string
}

/** `product` of the `product:created` body, and each `products[]` item of `order:created`. */
export interface ProductPayload<U extends UploadPayload = UploadPayload> {
  readonly product_id: number
  readonly title: string
  readonly description: string
  readonly description_html: string
  readonly external_id: string
  readonly external_data: Readonly<Record<string, unknown>>
  readonly price: number
  readonly compare_price: number
  readonly customiser_id: number
  readonly logo_upload_id: number | null
  readonly product_image_url: string
  readonly uploads: ReadonlyArray<U>
  readonly created_at: string
  readonly updated_at: string
}

/** Body of a `product:created` delivery. */
export interface ProductCreatedPayload {
  readonly product: ProductPayload
}

/** Address of an `order:created` body. */
export interface AddressPayload {
  readonly first_name: string | null
  readonly last_name: string | null
  readonly company: string | null
  readonly address_1: string | null
  readonly address_2: string | null
  readonly city: string | null
  readonly state: string | null
  readonly postcode: string | null
  readonly country: string | null
  readonly phone: string | null
  readonly email: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Customer of an `order:created` body. */
export interface CustomerPayload {
  readonly first_name: string | null
  readonly last_name: string | null
  readonly phone: string | null
  readonly email: string | null
  readonly external_id: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** `order` of the `order:created` body. */
export interface OrderPayload {
  readonly order_id: number
  readonly order_number: number
  readonly external_order_number: string
  readonly external_id: string
  readonly order_total: number
  readonly app_total: number
  readonly currency: string
  readonly shipping_line: string | null
  readonly billing_address: AddressPayload
  readonly shipping_address: AddressPayload
  readonly customer: CustomerPayload
  readonly products: ReadonlyArray<ProductPayload<UploadPayload & { readonly path: string }>>
  readonly created_at: string
  readonly updated_at: string
}

/** Body of an `order:created` delivery. */
export interface OrderCreatedPayload {
  readonly order: OrderPayload
}

/**
 * Timestamp in the previous generation's format (microseconds and `Z`, e.g.
 * `2026-03-01T12:00:00.000000Z`), which webhook payloads keep.
 */
export const toLegacyTimestamp = (date: Date): string => formatTimestampV2(date)

// Fields the payload documents as strings are never null: an unknown value is
// the empty string, so receivers that type them as strings keep working.
const text = (value: string | null): string => value ?? ""

const productBody = (product: ProductRecord) => ({
  product_id: product.id,
  title: product.title,
  description: text(product.description),
  description_html: text(product.descriptionHtml),
  external_id: text(product.externalId),
  external_data: product.externalData,
  price: product.price,
  // No compare-at price is reported as the price itself: never a fake discount.
  compare_price: product.comparePrice ?? product.price,
  customiser_id: product.customiserId,
  logo_upload_id: product.logoUploadId,
  product_image_url: product.productImageUrl,
  created_at: toLegacyTimestamp(product.createdAt),
  updated_at: toLegacyTimestamp(product.updatedAt)
})

/** Builds the `product:created` body `{product: {...}}`; uploads carry `url` and `type`. */
export const productCreatedPayload = (product: ProductRecord): ProductCreatedPayload => ({
  product: {
    ...productBody(product),
    uploads: product.uploads.map(({ url, type }) => ({ url, type }))
  }
})

const EMPTY_ADDRESS: AddressRecord = {
  firstName: null,
  lastName: null,
  company: null,
  address1: null,
  address2: null,
  city: null,
  province: null,
  postcode: null,
  country: null,
  phone: null,
  email: null
}

const EMPTY_CUSTOMER: CustomerRecord = { firstName: null, lastName: null, phone: null, email: null, externalId: null }

const addressPayload = (address: AddressRecord | null, createdAt: string, updatedAt: string): AddressPayload => {
  const a = address ?? EMPTY_ADDRESS
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    address_1: a.address1,
    address_2: a.address2,
    city: a.city,
    state: a.province,
    postcode: a.postcode,
    country: a.country,
    phone: a.phone,
    email: a.email,
    created_at: createdAt,
    updated_at: updatedAt
  }
}

/**
 * Builds the `order:created` body `{order: {...}}`. Addresses and customer are
 * always objects (all-null when unknown) and share the order's timestamps;
 * product uploads also carry `path`.
 */
export const orderCreatedPayload = (order: OrderRecord): OrderCreatedPayload => {
  const createdAt = toLegacyTimestamp(order.createdAt)
  const updatedAt = toLegacyTimestamp(order.updatedAt)
  const customer = order.customer ?? EMPTY_CUSTOMER
  return {
    order: {
      order_id: order.id,
      order_number: order.orderNumber,
      external_order_number: text(order.storeOrderNumber),
      external_id: text(order.storeOrderId),
      order_total: order.totalAmount,
      app_total: order.appTotal,
      currency: order.currency,
      shipping_line: order.shippingMethod,
      billing_address: addressPayload(order.billingAddress, createdAt, updatedAt),
      shipping_address: addressPayload(order.shippingAddress, createdAt, updatedAt),
      customer: {
        first_name: customer.firstName,
        last_name: customer.lastName,
        phone: customer.phone,
        email: customer.email,
        external_id: customer.externalId,
        created_at: createdAt,
        updated_at: updatedAt
      },
      products: order.products.map((product) => ({
        ...productBody(product),
        uploads: product.uploads.map(({ url, type, path }) => ({ url, type, path }))
      })),
      created_at: createdAt,
      updated_at: updatedAt
    }
  }
}
