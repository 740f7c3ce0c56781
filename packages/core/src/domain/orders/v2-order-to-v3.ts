import { Result } from "effect"
import type { FieldError } from "../input/field-error.js"
import { toPointer } from "../input/field-error.js"
import { invalidCurrencyFault, normaliseLegacyCurrency } from "./currency-fault.js"
import { present } from "./present.js"
import type { V2BillingAddress, V2Customer, V2OrderRequest, V2ShippingAddress } from "./v2-order.js"
import type { V3Address, V3Customer, V3LineItem, V3OrderRequest } from "./v3-order.js"

/** What a migration supplies to translate a v2 order. */
export interface V2OrderContext {
  /** Maps a v2 product `external_id` (returned for `product:created`) to the `data.id` of a v3 product. */
  readonly resolveProductId: (externalId: string) => number | undefined
  /** Overrides `total_amount`; by default it is the sum of `price × quantity` over `products`. */
  readonly totalAmount?: number
}

// `null` means "unknown" in both generations wherever both accept it, so it is
// carried over; absent stays absent.
const nullable = <K extends string>(key: K, value: string | null | undefined): { readonly [P in K]?: string | null } =>
  value === undefined ? {} : ({ [key]: value } as { readonly [P in K]?: string | null })

const translateCustomer = (customer: V2Customer): V3Customer => ({
  ...nullable("first_name", customer.first_name),
  ...nullable("last_name", customer.last_name),
  ...nullable("email", customer.email),
  ...nullable("phone", customer.phone)
})

const translateShippingAddress = (address: V2ShippingAddress): V3Address => ({
  ...present("first_name", address.first_name),
  ...present("last_name", address.last_name),
  ...present("address_1", address.address_1),
  // A v2 null `address_2` becomes an absent key. v3 accepts the null as well (`v3-order.ts`); the
  // translation leaves it out like the other address members, and the `order:created` payload
  // reads an absent second line as `address_2: null` all the same.
  ...present("address_2", address.address_2),
  ...present("city", address.city),
  ...present("province", address.province),
  ...present("postcode", address.postcode),
  ...present("country", address.country)
})

const translateBillingAddress = (address: V2BillingAddress): V3Address => ({
  ...translateShippingAddress(address),
  ...nullable("email", address.email),
  ...nullable("phone", address.phone)
})

const fault = (path: ReadonlyArray<string | number>, code: string, detail: string): FieldError => ({
  pointer: toPointer(path),
  code,
  detail
})

interface LineItemsAndTotal {
  readonly lineItems: ReadonlyArray<V3LineItem>
  readonly total: number
  readonly faults: ReadonlyArray<FieldError>
}

// v2 `price` is the unit price in minor units (the v2 response echoes it per
// product next to `quantity`), so the order total is Σ price × quantity.
const translateProducts = (req: V2OrderRequest, ctx: V2OrderContext): LineItemsAndTotal => {
  const faults: Array<FieldError> = []
  const lineItems: Array<V3LineItem> = []
  let total = 0
  req.products.forEach((product, index) => {
    const productId = ctx.resolveProductId(product.external_id)
    if (productId === undefined) {
      faults.push(fault(["products", index, "external_id"], "unknown_product",
        `No v3 product is known for external_id ${JSON.stringify(product.external_id)}`))
    }
    if (product.quantity < 1) faults.push(fault(["products", index, "quantity"], "too_small", "The quantity must be >= 1"))
    if (product.price < 0) faults.push(fault(["products", index, "price"], "too_small", "The price must be >= 0"))
    total += product.price * product.quantity
    if (productId !== undefined) lineItems.push({ product_id: productId, quantity: product.quantity })
  })
  if (ctx.totalAmount === undefined && !Number.isSafeInteger(total)) {
    faults.push(fault(["products"], "too_large", "The order total exceeds the largest exact integer"))
  }
  return { lineItems, total: ctx.totalAmount ?? total, faults }
}

/** Translates a v2 custom-integration order into a v3 order write request, or the faults that prevent it. */
export const v2OrderToV3 = (
  req: V2OrderRequest,
  ctx: V2OrderContext
): Result.Result<V3OrderRequest, ReadonlyArray<FieldError>> => {
  const faults: Array<FieldError> = []
  if (req.integration_id < 1) faults.push(fault(["integration_id"], "too_small", "The integration id must be >= 1"))
  const rawCurrency = req.currency ?? undefined
  const currency = rawCurrency === undefined ? undefined : normaliseLegacyCurrency(rawCurrency)
  if (rawCurrency !== undefined && currency === undefined) faults.push(invalidCurrencyFault("/currency", rawCurrency))
  const products = translateProducts(req, ctx)
  faults.push(...products.faults)
  if (faults.length > 0) return Result.fail(faults)
  return Result.succeed({
    integration_id: req.integration_id,
    store_order_id: req.external_id,
    store_order_number: req.external_order_number,
    total_amount: products.total,
    ...(currency === undefined ? {} : { currency }),
    ...present("shipping_method", req.shipping_line),
    ...(req.customer === undefined ? {} : { customer: translateCustomer(req.customer) }),
    ...(req.billing_address === undefined ? {} : { billing_address: translateBillingAddress(req.billing_address) }),
    ...(req.shipping_address === undefined ? {} : { shipping_address: translateShippingAddress(req.shipping_address) }),
    line_items: products.lineItems
  })
}
