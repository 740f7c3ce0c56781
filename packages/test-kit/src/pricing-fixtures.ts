/** Pricing documents shared by the HTTP suites: valid for a `simple_letter` customiser. */

/**
 * A valid v3 pricing document body without its read-only header, as first written: no ids yet
 * (the server assigns them), rows naming their size by `size_key`.
 */
export const simpleLetterContent = () => ({
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
      sizing_strategy: "fixed_width",
      height_measurement_mode: "line_height",
      width_multiplier: 1.2
    },
    {
      client_key: "large",
      name: "Large",
      description: "Shop fronts",
      sort_order: 1,
      char_limit: 40,
      line_limit: 3,
      min_char: 1,
      width_cm: 120,
      height_cm: 30,
      line_height_cm: 10,
      length_cm: null,
      sizing_strategy: "fixed_height",
      height_measurement_mode: "letter_height",
      width_multiplier: null
    }
  ],
  base_pricing: {
    mode: "included_in_price_lists",
    rows: [
      { size_key: "small", base_price: { line_1: 1000, line_2: 1500 }, width_limit_cm: 50, height_limit_cm: 10, length_limit_cm: null }
    ]
  },
  price_lists: [
    {
      name: "Standard",
      letter_pricing_method: "fixed_letter",
      shipping: { calculation: "volumetric", volumetric_divisor: 5000, add_weight_to_product: true },
      rows: [
        { size_key: "small", base_price: { line_1: 1000 }, letter_price: { line_1: 200 }, price_per_cm: 1.5, price_per_letter: 150 },
        { size_key: "large", base_price: { line_1: 2000 }, letter_price: { line_1: 400 }, price_per_cm: 2.5, price_per_letter: 250 }
      ]
    }
  ],
  sheet_pricing: { rows: [{ width_limit_cm: 100, height_limit_cm: 50, base_price: 5000, price_per_sq_cm: 0.02 }] }
})

/** The same document in the v2 shape (`height_strategy`, sheet `pricings`, legacy spellings). */
export const simpleLetterContentV2 = () => {
  const v3 = simpleLetterContent()
  return {
    sizes: v3.sizes.map(({ sizing_strategy, height_measurement_mode, ...size }) => ({
      ...size,
      height_strategy: sizing_strategy === "fixed_width" ? "WIDTH" : "HEIGHT",
      height_measurement_mode: height_measurement_mode === "line_height" ? "LINE_HEIGHT" : "LETTER_HEIGHT"
    })),
    base_pricing: v3.base_pricing,
    price_lists: v3.price_lists,
    sheet_pricing: {
      pricings: v3.sheet_pricing.rows.map((band) => ({
        cmLimitWidth: band.width_limit_cm,
        cmLimitHeight: band.height_limit_cm,
        basePrice: band.base_price,
        pricePerSqCm: band.price_per_sq_cm
      }))
    }
  }
}

type Element = Record<string, unknown>
interface WithElements {
  readonly sizes?: ReadonlyArray<Element>
  readonly price_lists?: ReadonlyArray<Element>
}

/**
 * `written` as it reads back: each size and price list led by the id the server gave it, taken
 * from `read` (a document read back after the write), so a comparison checks everything else.
 */
export const withIdsOf = <D extends WithElements>(written: D, read: WithElements, priceListId = "price_list_id"): D => ({
  ...written,
  ...(written.sizes === undefined
    ? {}
    : { sizes: written.sizes.map((size, index) => ({ size_id: read.sizes?.[index]?.size_id, ...size })) }),
  ...(written.price_lists === undefined
    ? {}
    : {
      price_lists: written.price_lists.map((list, index) => ({ [priceListId]: read.price_lists?.[index]?.[priceListId], ...list }))
    })
})

/** The ids of a read document's sizes and price lists, in document order. */
export const idsOf = (read: WithElements, priceListId = "price_list_id"): ReadonlyArray<unknown> => [
  ...(read.sizes ?? []).map((size) => size.size_id),
  ...(read.price_lists ?? []).map((list) => list[priceListId])
]
