/**
 * Seeds a running signcraft server for the HTTP benchmark through its own API (operator API and
 * v3), as an integrator would: a Store with a key, customisers, a ~6.4 KB pricing document, an
 * integration pointing at a local receiver, and a product to order. Every case's request is
 * checked once before load, so a benchmark never measures error answers.
 */

/** Every scope the cases need, on one key (more scopes never make a request cheaper). */
const SCOPES = ["store:read", "customisers:read", "pricing:read", "pricing:write", "orders:write", "products:write", "analytics:read"]
// The pricing read case serves a document of about this size: a Store's document with a handful of
// sizes and price lists, large enough that encoding it is a real part of the read.
const PRICING_BYTES = 6400
const CUSTOMISERS = 10

/** What the cases send requests with. */
export interface Seeded {
  readonly storeId: number
  readonly key: string
  readonly customiserId: number
  readonly integrationId: number
  readonly productId: number
  /** The size in bytes of the pricing document's GET answer. */
  readonly pricingBytes: number
}

interface Answer {
  readonly status: number
  // biome-ignore lint/suspicious/noExplicitAny: seeding reads arbitrary JSON answers
  readonly body: any
}

const send = async (url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> => {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : JSON.parse(text) }
}

const expectStatus = (what: string, answer: Answer, status: number): Answer => {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer
}

// A size of the pricing document; `index` makes each one distinct.
const size = (index: number) => ({
  client_key: `size-${index}`,
  name: `Size ${index}`,
  description: index % 2 === 0 ? null : `Shop fronts, ${index}`,
  sort_order: index,
  char_limit: 30,
  line_limit: 3,
  min_char: 1,
  width_cm: 40 + 10 * index,
  height_cm: 10 + index,
  line_height_cm: 5,
  length_cm: null,
  sizing_strategy: index % 2 === 0 ? "fixed_width" : "fixed_height",
  height_measurement_mode: index % 2 === 0 ? "line_height" : "letter_height",
  width_multiplier: index % 2 === 0 ? 1.2 : null
})

/** A valid `simple_letter` v3 pricing document with `sizes` sizes, each priced in two price lists. */
export const pricingDocument = (sizes: number) => {
  const indexes = Array.from({ length: sizes }, (_, index) => index)
  return {
    sizes: indexes.map(size),
    base_pricing: {
      mode: "included_in_price_lists",
      rows: indexes.map((index) => ({
        size_key: `size-${index}`,
        base_price: { line_1: 1000 + index, line_2: 1500 + index },
        width_limit_cm: 200,
        height_limit_cm: 80,
        length_limit_cm: null
      }))
    },
    price_lists: ["Standard", "Trade"].map((name, list) => ({
      name,
      letter_pricing_method: "fixed_letter",
      shipping: { calculation: "volumetric", volumetric_divisor: 5000, add_weight_to_product: true },
      rows: indexes.map((index) => ({
        size_key: `size-${index}`,
        base_price: { line_1: 1000 + index + list },
        letter_price: { line_1: 200 + index },
        price_per_cm: 1.5,
        price_per_letter: 150
      }))
    })),
    sheet_pricing: { rows: [{ width_limit_cm: 100, height_limit_cm: 50, base_price: 5000, price_per_sq_cm: 0.02 }] }
  }
}

/** The v3 order body of the order-write case, with `address_2` given, so the case carries the optional address members too. */
export const orderBody = (integrationId: number, productId: number) => {
  const address = {
    first_name: "Ada",
    last_name: "Lovelace",
    company: null,
    address_1: "1 Road",
    address_2: "Unit 4",
    city: "London",
    postcode: "N1 1AA",
    country: "GB"
  }
  return {
    integration_id: integrationId,
    store_order_id: "A-1",
    store_order_number: "1001",
    total_amount: 25000,
    currency: "USD",
    shipping_method: "Standard",
    billing_address: address,
    shipping_address: address,
    line_items: [{ product_id: productId, quantity: 2 }]
  }
}

/** The storefront design body (as packages/core/test/http/commerce-flow.test.ts sends it). */
export const designBody = (integrationId: number) => ({
  integration_id: integrationId,
  title: "OPEN in pink neon",
  price: 24900,
  compare_price: 29900,
  currency: "USD",
  description: "Pink neon, 60 cm",
  customisations: [{ key: "text", label: "Text", value: "OPEN" }],
  product_image_url: "https://cdn.example.com/designs/open.png"
})

/** Seeds the server at `base`; `receiverUrl` answers the integration's create-product calls. */
export const seed = async (base: string, operatorToken: string, receiverUrl: string): Promise<Seeded> => {
  const operator = (path: string, body: unknown) =>
    send(`${base}/operator/v1${path}`, "POST", { authorization: `Bearer ${operatorToken}` }, body).then((answer) =>
      expectStatus(`POST /operator/v1${path}`, answer, 201).body
    )
  const company = await operator("/companies", { name: "Bench Company" })
  const store = await operator("/stores", { company_id: company.id, name: "Bench Store", currency: "USD" })
  const key = String((await operator(`/stores/${store.id}/api-keys`, { mode: "test", scopes: SCOPES })).key)
  const auth = { authorization: `Bearer ${key}` }

  const customisers: Array<number> = []
  for (let index = 0; index < CUSTOMISERS; index++) {
    const customiser = await operator(`/stores/${store.id}/customisers`, {
      name: `Neon sign ${index}`,
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    customisers.push(Number(customiser.id))
  }
  const customiserId = customisers[0] ?? 0

  // Grow the document until its GET answer reaches `PRICING_BYTES`.
  const pricingPath = `${base}/api/v3/customisers/${customiserId}/pricing`
  let pricingBytes = 0
  for (let sizes = 4; pricingBytes < PRICING_BYTES && sizes <= 60; sizes++) {
    const headers = { ...auth, "idempotency-key": `bench-pricing-${sizes}` }
    expectStatus("PUT pricing", await send(pricingPath, "PUT", headers, pricingDocument(sizes)), 200)
    const read = await fetch(pricingPath, { headers: auth })
    pricingBytes = (await read.arrayBuffer()).byteLength
  }

  const integration = await operator(`/stores/${store.id}/integrations`, { create_product_url: receiverUrl, name: "Bench shop" })
  const product = expectStatus(
    "POST product",
    await send(`${base}/api/v3/customisers/${customiserId}/products`, "POST", auth, {
      integration_id: integration.id,
      store_product_id: "sku-1",
      title: "Custom neon",
      price_amount: 12500,
      currency: "USD",
      width_cm: 60,
      height_cm: 20.5,
      customisations: [{ key: "text", label: "Text", value: "Hello" }],
      artwork: { preview_image_url: "https://cdn.example.com/p.png" }
    }),
    201
  )
  return { storeId: Number(store.id), key, customiserId, integrationId: Number(integration.id), productId: Number(product.body.data.id), pricingBytes }
}

/** Sends one request as a case will, and fails unless it answers `status`. */
export const checkOnce = async (
  what: string,
  request: { readonly url: string; readonly method: string; readonly headers: Record<string, string>; readonly body?: string },
  status: number
): Promise<void> => {
  // A case's body may carry autocannon's `[<id>]` placeholder; any fixed value stands in here.
  const unique = `check-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, value.replaceAll("[<id>]", unique)]))
  const response = await fetch(request.url, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: request.body.replaceAll("[<id>]", unique) })
  })
  const text = await response.text()
  if (response.status !== status) throw new Error(`${what}: answered ${response.status}: ${text.slice(0, 500)}`)
}

// Orders per import request: about 80 bytes each, well under the 1 MiB body budget.
const IMPORT_BATCH = 5000
const CURRENCIES = ["USD", "EUR", "GBP", "JPY"]

/**
 * Imports `count` historical orders into the seeded Store through the operator import, in
 * batches, spread over the last 400 days in four currencies; answers how many were imported.
 */
export const importOrders = async (base: string, operatorToken: string, storeId: number, count: number): Promise<number> => {
  const now = Date.now()
  let imported = 0
  for (let start = 0; start < count; start += IMPORT_BATCH) {
    const orders = Array.from({ length: Math.min(IMPORT_BATCH, count - start) }, (_, offset) => {
      const index = start + offset
      return {
        created_at: new Date(now - (index % 400) * 86_400_000 - (index % 86_400) * 1000).toISOString(),
        total_amount: 1000 + (index % 9000),
        currency: CURRENCIES[index % CURRENCIES.length] ?? "USD"
      }
    })
    const answer = expectStatus(
      "POST orders/import",
      await send(`${base}/operator/v1/stores/${storeId}/orders/import`, "POST", { authorization: `Bearer ${operatorToken}` }, { orders }),
      200
    )
    imported += Number(answer.body.imported)
  }
  return imported
}
