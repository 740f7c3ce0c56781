import { Result } from "effect"
import { majorToMinor } from "../currency.js"
import type { FieldError } from "../input/field-error.js"
import { toPointer } from "../input/field-error.js"
import { conversionFault, invalidCurrencyFault, normaliseLegacyCurrency } from "./currency-fault.js"
import type { LegacyOrderRequest, LegacyShippingAddress } from "./legacy-order.js"
import { splitFullName } from "./person-name.js"
import { present } from "./present.js"
import type { V3Address, V3LineItem, V3OrderRequest } from "./v3-order.js"

/** Maps one element of the legacy `products` array to the `data.id` of a v3 product, or undefined when unknown. */
export type LegacyProductResolver = (reference: string) => number | undefined

/** What the unversioned order does not carry and a migration must supply. */
export interface LegacyOrderContext {
  /** The enabled integration the translated order is sent through. */
  readonly integrationId: number
  readonly resolveProductId: LegacyProductResolver
}

/** A translated unversioned order before an integration is chosen: the legacy body names none. */
export type LegacyOrderDraft = Omit<V3OrderRequest, "integration_id">

const translateAddress = (address: LegacyShippingAddress): V3Address | undefined => {
  const name = splitFullName(address.name)
  const translated: V3Address = {
    ...present("first_name", name.firstName),
    ...present("last_name", name.lastName),
    ...present("phone", address.phone),
    ...present("address_1", address.address1),
    ...present("address_2", address.address2),
    ...present("city", address.city),
    ...present("province", address.province),
    ...present("postcode", address.zip),
    ...present("country", address.country)
  }
  return Object.keys(translated).length > 0 ? translated : undefined
}

interface Translated<A> {
  readonly value: A | undefined
  readonly faults: ReadonlyArray<FieldError>
}

const required = (pointer: string, detail: string): FieldError => ({ pointer, code: "required", detail })

// v3 needs an integer total, and only the currency's exponent says how to get
// it, so a missing or unknown currency blocks the total as well.
const translateTotal = (req: LegacyOrderRequest): Translated<{ total: number; currency: string }> => {
  const faults: Array<FieldError> = []
  const currency = req.order_currency === undefined ? undefined : normaliseLegacyCurrency(req.order_currency)
  if (req.order_currency === undefined) {
    faults.push(required("/order_currency", "The currency is needed to convert order_total to minor units"))
  } else if (currency === undefined) {
    faults.push(invalidCurrencyFault("/order_currency", req.order_currency))
  }
  if (req.order_total === undefined) faults.push(required("/order_total", "v3 requires total_amount"))
  if (req.order_total === undefined || currency === undefined) return { value: undefined, faults }
  const converted = majorToMinor(req.order_total, currency)
  if (Result.isFailure(converted)) return { value: undefined, faults: [conversionFault("/order_total", converted.failure)] }
  if (converted.success < 0) {
    return { value: undefined, faults: [{ pointer: "/order_total", code: "too_small", detail: "The total must be >= 0" }] }
  }
  return { value: { total: converted.success, currency }, faults: [] }
}

// Each element of the legacy array is one unit; repeats of a product become one
// line item whose quantity counts them, in order of first appearance.
const translateProducts = (
  products: ReadonlyArray<string>,
  resolve: (reference: string) => number | undefined
): { readonly lineItems: ReadonlyArray<V3LineItem>; readonly faults: ReadonlyArray<FieldError> } => {
  const quantities = new Map<number, number>()
  const faults: Array<FieldError> = []
  products.forEach((reference, index) => {
    const productId = resolve(reference)
    if (productId === undefined) {
      faults.push({
        pointer: toPointer(["products", index]),
        code: "unknown_product",
        detail: `No v3 product is known for ${JSON.stringify(reference)}`
      })
      return
    }
    quantities.set(productId, (quantities.get(productId) ?? 0) + 1)
  })
  const lineItems = [...quantities].map(([product_id, quantity]) => ({ product_id, quantity }))
  return { lineItems, faults }
}

/**
 * Translates an unversioned legacy order into the v3 model without an integration, or the faults
 * that prevent it; the service records it as it is, since the legacy operation works for any Store.
 */
export const legacyOrderDraft = (
  req: LegacyOrderRequest,
  resolveProductId: LegacyProductResolver
): Result.Result<LegacyOrderDraft, ReadonlyArray<FieldError>> => {
  const total = translateTotal(req)
  const lineItems = translateProducts(req.products, resolveProductId)
  const faults = [...total.faults, ...lineItems.faults]
  if (total.value === undefined || faults.length > 0) return Result.fail(faults)
  const shippingAddress = req.shipping_address === null || req.shipping_address === undefined
    ? undefined
    : translateAddress(req.shipping_address)
  return Result.succeed({
    store_order_id: req.order_id,
    store_order_number: req.order_number,
    total_amount: total.value.total,
    currency: total.value.currency,
    ...present("shipping_method", req.shipping_line),
    ...(req.email === null || req.email === undefined ? {} : { customer: { email: req.email } }),
    ...(shippingAddress === undefined ? {} : { shipping_address: shippingAddress }),
    line_items: lineItems.lineItems
  })
}

/** Translates an unversioned legacy order into a v3 order write request, or the faults that prevent it. */
export const legacyOrderToV3 = (
  req: LegacyOrderRequest,
  ctx: LegacyOrderContext
): Result.Result<V3OrderRequest, ReadonlyArray<FieldError>> =>
  Result.map(legacyOrderDraft(req, ctx.resolveProductId), (draft) => ({ integration_id: ctx.integrationId, ...draft }))
