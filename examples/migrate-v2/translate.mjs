// Migrating from the v2 API with nothing but the pure rules (`@signcraft/core/domain`): no
// database, no server. Translates one v2 order and one v2 pricing document into their v3
// shapes, checks the results and exits 0, or prints what differs and exits 1.
//
//   node examples/migrate-v2/translate.mjs
import { deepStrictEqual } from "node:assert/strict"
import { orders, pricing } from "@signcraft/core/domain"
import { Result } from "effect"

/** A v2 custom-integration order, as `POST /api/v2/orders` took it. */
const V2_ORDER = {
  integration_id: 7,
  external_id: "order-1001",
  external_order_number: "#1001",
  currency: "eur",
  shipping_line: "Standard",
  products: [
    { external_id: "shop-product-1", quantity: 2, price: 1250 },
    { external_id: "shop-product-2", quantity: 1, price: 4000 }
  ]
}

/** A v2 pricing document (`height_strategy`, sheet `pricings` in camelCase). */
const V2_PRICING = {
  sizes: [
    {
      client_key: "small",
      name: "Small",
      description: null,
      sort_order: 0,
      char_limit: 20,
      line_limit: 2,
      min_char: 1,
      width_cm: 50,
      height_cm: 10,
      line_height_cm: 5,
      length_cm: null,
      height_strategy: "WIDTH",
      height_measurement_mode: "LINE_HEIGHT",
      width_multiplier: 1.2
    }
  ],
  base_pricing: {
    mode: "included_in_price_lists",
    rows: [{ size_key: "small", base_price: { line_1: 1000, line_2: 1500 }, width_limit_cm: 50, height_limit_cm: 10, length_limit_cm: null }]
  },
  price_lists: [
    {
      name: "Standard",
      letter_pricing_method: "fixed_letter",
      shipping: { calculation: "volumetric", volumetric_divisor: 5000, add_weight_to_product: true },
      rows: [{ size_key: "small", base_price: { line_1: 1000 }, letter_price: { line_1: 200 }, price_per_cm: 1.5, price_per_letter: 150 }]
    }
  ],
  sheet_pricing: { pricings: [{ cmLimitWidth: 100, cmLimitHeight: 50, basePrice: 5000, pricePerSqCm: 0.02 }] }
}

const orThrow = (what, result) => {
  if (Result.isFailure(result)) throw new Error(`${what}: ${JSON.stringify(result.failure)}`)
  return result.success
}

// The order: the shop's product references become the v3 product ids the integrator knows.
const productIds = new Map([["shop-product-1", 11], ["shop-product-2", 12]])
const v2Order = orThrow("not a v2 order", orders.decodeRequest(orders.V2OrderRequest)(V2_ORDER))
const v3Order = orThrow("order not translated", orders.v2OrderToV3(v2Order, { resolveProductId: (ref) => productIds.get(ref) }))
deepStrictEqual(v3Order, {
  integration_id: 7,
  store_order_id: "order-1001",
  store_order_number: "#1001",
  total_amount: 2 * 1250 + 4000,
  currency: "EUR",
  shipping_method: "Standard",
  line_items: [
    { product_id: 11, quantity: 2 },
    { product_id: 12, quantity: 1 }
  ]
})

// The pricing document: validated as v2 (a broken copy is refused), then translated to v3 and back.
const stored = {
  pricingModel: "simple_letter",
  currency: "EUR",
  customiserId: 3,
  identities: { sizeIds: new Set(), priceListIds: new Set() }
}
const validation = pricing.validatePricingV2({ pricing: V2_PRICING }, stored)
if (!validation.ok) throw new Error(`v2 pricing refused: ${JSON.stringify(validation.errors)}`)
const broken = { ...V2_PRICING, sizes: [{ ...V2_PRICING.sizes[0], width_cm: "wide" }] }
const refused = pricing.validatePricingV2({ pricing: broken }, stored)
if (refused.ok || !refused.errors.some((fault) => fault.pointer === "/pricing/sizes/0/width_cm")) {
  throw new Error(`a width that is not a number was not refused at its pointer: ${JSON.stringify(refused)}`)
}
const v2Pricing = validation.document
const { document: v3Pricing, legacySpellings } = pricing.pricingV2ToV3(v2Pricing, stored)
deepStrictEqual(
  {
    model: v3Pricing.pricing_model,
    strategy: v3Pricing.sizes?.[0]?.sizing_strategy,
    mode: v3Pricing.sizes?.[0]?.height_measurement_mode,
    sheet: v3Pricing.sheet_pricing
  },
  {
    model: "simple_letter",
    strategy: "fixed_width",
    mode: "line_height",
    sheet: { rows: [{ width_limit_cm: 100, height_limit_cm: 50, base_price: 5000, price_per_sq_cm: 0.02 }] }
  }
)
const backToV2 = pricing.pricingV3ToV2(v3Pricing, { legacySpellings })
deepStrictEqual(backToV2.sheet_pricing, V2_PRICING.sheet_pricing)

console.log(`v2 order ${V2_ORDER.external_id} -> v3 total ${v3Order.total_amount} ${v3Order.currency}, ${v3Order.line_items.length} line items`)
console.log(`v2 pricing -> v3 ${v3Pricing.pricing_model}, ${v3Pricing.sizes?.length ?? 0} size(s), and back`)
