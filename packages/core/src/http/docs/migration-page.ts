import { Context, Result } from "effect"
import { HttpApi } from "effect/http-api"
import {
  FinishKind,
  HeightMeasurementMode,
  PricingModel,
  ProductFamily,
  SelectionMode,
  SignCategory,
  SizingStrategy
} from "../../domain/enums.js"
import { legacyOrderToV3 } from "../../domain/orders/legacy-order-to-v3.js"
import type { LegacyOrderRequest } from "../../domain/orders/legacy-order.js"
import { v2OrderToV3 } from "../../domain/orders/v2-order-to-v3.js"
import type { V2OrderRequest } from "../../domain/orders/v2-order.js"
import type { V3OrderRequest } from "../../domain/orders/v3-order.js"
import { pricingHeaderV3, pricingV3ToV2 } from "../../domain/pricing/translate-pricing.js"
import type { PricingDocumentV3 } from "../../domain/pricing/schema-v3.js"
import type { OrderSource, StoredOrder } from "../../domain/orders/stored-order.js"
import { acceptedScopes, DeprecatedOperation, RequiredScope } from "../annotations.js"
import { SigncraftApi } from "../api/index.js"
import type { V2OrderResponse } from "../api/legacy-commerce.js"
import { orderView } from "../../presenters/commerce.js"
import { envelopeOf } from "../../presenters/envelope.js"
import { DEPRECATED_AT_UNIX, deprecationHeaders, SUNSET_HTTP_DATE } from "../deprecation.js"
import { code, docPage, escapeHtml, pre, prose } from "./pages.js"

/** One operation of the API as documentation names it: `METHOD /path/{param}`. */
interface DeclaredOperation {
  readonly name: string
  readonly scopes: ReadonlyArray<string>
  /** The `DeprecatedOperation` annotation, when the operation is previous generation. */
  readonly deprecated: string | undefined
}

const operationName = (method: string, path: string): string => `${method} ${path.replace(/:(\w+)/g, "{$1}")}`

/** Every operation SigncraftApi declares, with its scopes and deprecation, read from the API itself. */
export const declaredOperations = (): ReadonlyArray<DeclaredOperation> => {
  const operations: Array<DeclaredOperation> = []
  HttpApi.reflect(SigncraftApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      operations.push({
        name: operationName(endpoint.method, endpoint.path),
        scopes: acceptedScopes(Context.get(endpoint.annotations, RequiredScope)),
        deprecated: Context.get(endpoint.annotations, DeprecatedOperation)
      })
    }
  })
  return operations
}

/** Where each deprecated operation's callers go (docs/api.md, deprecation). */
export const REPLACEMENTS: Readonly<Record<string, { readonly operation: string; readonly note: string }>> = {
  "POST /api/v2/orders": {
    operation: "POST /api/v3/orders",
    note: "Products are referenced by the v3 product id (`line_items[].product_id`), not the `external_id`; `total_amount` is required."
  },
  "POST /api/orders": {
    operation: "POST /api/v3/orders",
    note: "Name the enabled `integration_id`; `order_total` (major units) becomes `total_amount` (minor units)."
  },
  "GET /api/v2/customisers": { operation: "GET /api/v3/customisers", note: "Collection envelope, canonical enum spellings." },
  "GET /api/v2/customisers/{customiser}": {
    operation: "GET /api/v3/customisers/{customiser_id}",
    note: "Single envelope; `customiser_id` becomes `id`."
  },
  "POST /api/customisers/{customiser}/products": {
    operation: "POST /api/v3/customisers/{customiser_id}/products",
    note: "The path takes the integer customiser id; `cart` becomes `customisations[]`, the paths become `artwork` URLs."
  },
  "GET /api/v2/customisers/{customiser}/pricing": {
    operation: "GET /api/v3/customisers/{customiser_id}/pricing",
    note: "The document itself under `data` (no `pricing` wrapper), with `currency` instead of `value_units`."
  },
  "PUT /api/v2/customisers/{customiser}/pricing": {
    operation: "PUT /api/v3/customisers/{customiser_id}/pricing",
    note: "Body is the document itself; requires `Idempotency-Key`. Validate first with `POST …/pricing/validate`."
  },
  "GET /api/v2/webhooks": { operation: "GET /api/v3/webhook-subscriptions", note: "The signing secret is not returned on reads." },
  "GET /api/v2/webhooks/{webhook_id}": {
    operation: "GET /api/v3/webhook-subscriptions/{webhook_id}",
    note: "The signing secret is not returned on reads."
  },
  "POST /api/v2/webhooks": {
    operation: "POST /api/v3/webhook-subscriptions",
    note: "The signing secret is returned once, in this answer: store it."
  },
  "PUT /api/v2/webhooks/{webhook_id}": {
    operation: "PATCH /api/v3/webhook-subscriptions/{webhook_id}",
    note: "An RFC 7396 merge patch of `topic` and `url`."
  },
  "DELETE /api/v2/webhooks/{webhook_id}": { operation: "DELETE /api/v3/webhook-subscriptions/{webhook_id}", note: "" },
  "GET /api/v2/webhook-examples/{topic}": {
    operation: "GET /api/v3/webhook-event-types",
    note: "Every topic with a static example and its `deprecated` flag."
  }
}

/** The enumerations whose v2 spellings differ from v3, with the v2 fields that carry them. */
const ENUMS = [
  { definition: PricingModel, legacyFields: "customiser `price_type`, pricing `pricing_model`" },
  { definition: ProductFamily, legacyFields: "customiser `product`" },
  { definition: SelectionMode, legacyFields: "customiser `selection_type`" },
  { definition: SizingStrategy, legacyFields: "size `height_strategy`" },
  { definition: HeightMeasurementMode, legacyFields: "size `height_measurement_mode`" },
  { definition: SignCategory, legacyFields: "`sign_category`" },
  { definition: FinishKind, legacyFields: "`finish_kind`" }
] as const

/**
 * Field translations from the previous generation to v3 (docs/api.md, generations). The
 * translators in domain/orders and domain/pricing implement them; this is their reader's map, and
 * its rows that are plain paths are checked against the translators (packages/core/test/http/docs-pages.test.ts).
 */
export const FIELD_MAP: ReadonlyArray<readonly [where: string, legacy: string, v3: string]> = [
  ["v2 order", "external_id", "store_order_id"],
  ["v2 order", "external_order_number", "store_order_number"],
  ["v2 order", "shipping_line", "shipping_method"],
  ["v2 order", "products[].external_id", "line_items[].product_id (the v3 product's data.id)"],
  ["v2 order", "products[].price", "none: the price is captured from the product; total_amount is Σ price × quantity"],
  ["v2 pricing", "pricing wrapper", "the document itself (response under data)"],
  ["v2 pricing", "price_lists[].pricing_id", "price_lists[].price_list_id"],
  ["v2 pricing", "sizes[].height_strategy", "sizes[].sizing_strategy"],
  ["v2 pricing", "sheet_pricing.pricings", "sheet_pricing.rows"],
  ["v2 pricing", "sheet_pricing.pricings[].cmLimitWidth", "sheet_pricing.rows[].width_limit_cm"],
  ["v2 pricing", "sheet_pricing.pricings[].cmLimitHeight", "sheet_pricing.rows[].height_limit_cm"],
  ["v2 pricing", "sheet_pricing.pricings[].basePrice", "sheet_pricing.rows[].base_price"],
  ["v2 pricing", "sheet_pricing.pricings[].pricePerSqCm", "sheet_pricing.rows[].price_per_sq_cm"],
  ["v2 pricing", "value_units", "removed (read-only currency instead)"],
  ["unversioned order", "order_id", "store_order_id"],
  ["unversioned order", "order_number", "store_order_number"],
  ["unversioned order", "order_total (decimal, major units)", "total_amount (integer, minor units)"],
  ["unversioned order", "order_currency", "currency"],
  ["unversioned order", "email", "customer.email"],
  ["unversioned order", "shipping_address.name", "shipping_address.first_name and last_name"],
  ["unversioned order", "shipping_address.address1", "shipping_address.address_1"],
  ["unversioned order", "shipping_address.address2", "shipping_address.address_2"],
  ["unversioned order", "shipping_address.zip", "shipping_address.postcode"],
  ["unversioned order", "products[] (one element per unit)", "line_items[] (product_id, quantity)"],
  ["product sync", "product_id", "store_product_id"],
  ["product sync", "cart", "customisations[] (key, label, value)"],
  ["product sync", "custom_background_path", "artwork.custom_background_url"],
  ["product sync", "custom_background_original_path", "artwork.custom_background_original_url"],
  ["product sync", "logo_original_path", "artwork.source_file_url"],
  ["all", "path {customiser}", "path {customiser_id}"]
]

// A field path in code type; a description as text.
const field = (text: string): string => (text.includes(" ") ? escapeHtml(text) : code(text))
const json = (value: unknown): string => pre(JSON.stringify(value, null, 2))
const table = (headings: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  `<table><thead><tr>${headings.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>` +
  rows.map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("") + "</tbody></table>"
const sideBySide = (title: string, before: string, after: string): string =>
  `<h3>${escapeHtml(title)}</h3><table style="table-layout:fixed;width:100%"><thead><tr><th>previous generation</th><th>v3</th></tr></thead>` +
  `<tbody><tr><td style="vertical-align:top">${before}</td><td style="vertical-align:top">${after}</td></tr></tbody></table>`

const replacementTable = (): string => {
  const operations = declaredOperations()
  const byName = new Map(operations.map((operation) => [operation.name, operation]))
  const rows = operations.flatMap((operation) => {
    if (operation.deprecated === undefined) return []
    const replacement = REPLACEMENTS[operation.deprecated]
    const target = replacement === undefined ? undefined : byName.get(replacement.operation)
    return [[
      code(operation.deprecated),
      replacement === undefined ? "no replacement documented" : code(replacement.operation),
      (target?.scopes ?? []).map(code).join(", "),
      replacement === undefined ? "" : prose(replacement.note)
    ]]
  })
  return table(["deprecated operation", "v3 replacement", "scope", "what changes"], rows)
}

const enumTable = (): string =>
  table(
    ["v3 field", "canonical value", "legacy spellings", "v2 fields"],
    ENUMS.flatMap(({ definition, legacyFields }) =>
      definition.values.map((value) => {
        const legacy = definition.legacyValues.filter((spelling) => definition.toCanonical(spelling).value === value)
        const readOnly = definition.writableValues.some((writable) => writable === value) ? "" : " (read-only, refused on writes)"
        return [code(definition.name), code(value) + readOnly, legacy.map(code).join(" or "), prose(legacyFields)]
      })
    )
  )

// The examples are computed by the service's own translators, so they show what it really does.
/** The pricing document of the examples. */
export const SAMPLE_PRICING: PricingDocumentV3 = {
  ...pricingHeaderV3({ pricingModel: "simple_letter", currency: "USD", customiserId: 42 }),
  sizes: [{
    size_id: 7,
    name: "Small",
    line_limit: 2,
    char_limit: 12,
    sizing_strategy: "fixed_width",
    height_measurement_mode: "line_height",
    width_cm: 60
  }],
  base_pricing: { mode: "included_in_price_lists", rows: [] },
  price_lists: [{
    price_list_id: 3,
    name: "Standard",
    letter_pricing_method: "fixed_letter",
    shipping: null,
    rows: [{ size_id: 7, base_price: { line_1: 14900, line_2: 19900 } }]
  }],
  sheet_pricing: null
}

const writeBodyV3 = (document: PricingDocumentV3): PricingDocumentV3 => {
  const { object: _object, pricing_model_display_name: _name, currency: _currency, ...body } = document
  return body
}

/** The v2 order of the examples. */
export const SAMPLE_V2_ORDER: V2OrderRequest = {
  integration_id: 12,
  external_id: "gid://shop/Order/777",
  external_order_number: "#1017",
  currency: "USD",
  shipping_line: "Standard",
  customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: null },
  shipping_address: {
    first_name: "Ada",
    last_name: "Lovelace",
    address_1: "1 Analytical Way",
    address_2: null,
    city: "London",
    province: "Greater London",
    postcode: "N1 9GU",
    country: "GB"
  },
  products: [{ external_id: "1001", quantity: 1, price: 24900 }]
}

/** The unversioned order of the examples. */
export const SAMPLE_LEGACY_ORDER: LegacyOrderRequest = {
  order_id: "gid://shop/Order/778",
  order_number: "#1018",
  order_total: 249,
  order_currency: "USD",
  email: "ada@example.com",
  products: ["1001"],
  shipping_address: {
    name: "Ada Lovelace",
    address1: "1 Analytical Way",
    address2: "Floor 2",
    city: "London",
    province: "Greater London",
    country: "GB",
    zip: "N1 9GU"
  },
  shipping_line: "Standard"
}

/** The examples' product lookup: the v3 product recorded for the design whose v2 `external_id` is "1001". */
export const resolveProductId = (reference: string): number | undefined => (reference === "1001" ? 1001 : undefined)

// A v3 success envelope as the service builds it, for an example answer at `path`.
const envelope = (baseUrl: string, data: unknown, path: string) =>
  envelopeOf(data, { requestId: "req_4bX0aQvH2mZ8yN6kLp3sT1wE", selfUrl: `${baseUrl}${path}` }, baseUrl)

// The order the service stores for a translated request, answered through the v3 presenter.
const v3OrderResponse = (baseUrl: string, order: V3OrderRequest | undefined, id: number, source: OrderSource) => {
  const at = new Date("2026-03-01T12:00:00.000Z")
  const stored: StoredOrder | undefined = order === undefined ? undefined : {
    id,
    storeId: 1,
    source,
    integrationId: order.integration_id,
    status: "received",
    storeOrderId: order.store_order_id ?? null,
    storeOrderNumber: order.store_order_number ?? null,
    totalAmount: order.total_amount,
    appTotal: order.total_amount,
    currency: order.currency ?? "USD",
    shippingMethod: order.shipping_method ?? null,
    customer: order.customer ?? null,
    billingAddress: order.billing_address ?? null,
    shippingAddress: order.shipping_address ?? null,
    lineItems: (order.line_items ?? []).map((item) => ({
      productId: item.product_id,
      quantity: item.quantity,
      unitPriceAmount: 24900,
      currency: "USD",
      title: "Custom neon sign: Open Late"
    })),
    createdAt: at,
    updatedAt: at
  }
  return envelope(baseUrl, stored === undefined ? undefined : orderView(stored), `/api/v3/orders/${id}`)
}

const translated = <A>(result: Result.Result<A, unknown>): A | undefined => (Result.isSuccess(result) ? result.success : undefined)

const http = (head: string, headers: ReadonlyArray<string>, body: unknown): string =>
  pre([head, ...headers].join("\n")) + (body === undefined ? "" : json(body))

const examples = (baseUrl: string): string => {
  const v2Pricing = pricingV3ToV2(SAMPLE_PRICING)
  const auth = "Authorization: Bearer sk_live_…"
  const idempotency = "Idempotency-Key: 5f0c7a8e-2d1b-4c7e-9d8a-3b6f1e2a9c40"
  const deprecation = Object.entries(deprecationHeaders(baseUrl)).map(([name, value]) => `${name}: ${value}`)
  const v3Order = translated(v2OrderToV3(SAMPLE_V2_ORDER, { resolveProductId }))
  const v3FromLegacy = translated(legacyOrderToV3(SAMPLE_LEGACY_ORDER, { integrationId: 12, resolveProductId }))
  const v2OrderAnswer: typeof V2OrderResponse.Type = {
    order: {
      order_id: 5001,
      external_id: SAMPLE_V2_ORDER.external_id,
      external_order_number: SAMPLE_V2_ORDER.external_order_number,
      currency: SAMPLE_V2_ORDER.currency ?? null,
      shipping_line: SAMPLE_V2_ORDER.shipping_line ?? null,
      products: SAMPLE_V2_ORDER.products
    }
  }
  const pricingPath = "/customisers/42/pricing"
  return sideBySide(
    "Read pricing",
    http(`GET /api/v2${pricingPath}`, [auth], undefined) + http("HTTP/1.1 200 OK", deprecation, { pricing: v2Pricing }),
    http(`GET /api/v3${pricingPath}`, [auth], undefined) +
      http("HTTP/1.1 200 OK", [], envelope(baseUrl, SAMPLE_PRICING, `/api/v3${pricingPath}`))
  ) +
    sideBySide(
      "Replace pricing",
      http(`PUT /api/v2${pricingPath}`, [auth, "Content-Type: application/json"], { pricing: v2Pricing }) +
        http("HTTP/1.1 200 OK", deprecation, { pricing: v2Pricing }),
      http(`PUT /api/v3${pricingPath}`, [auth, "Content-Type: application/json", idempotency], writeBodyV3(SAMPLE_PRICING)) +
        http("HTTP/1.1 200 OK", [], envelope(baseUrl, SAMPLE_PRICING, `/api/v3${pricingPath}`))
    ) +
    sideBySide(
      "Create an order (v2 custom integration)",
      http("POST /api/v2/orders", [auth, "Content-Type: application/json"], SAMPLE_V2_ORDER) +
        http("HTTP/1.1 200 OK", deprecation, v2OrderAnswer),
      http("POST /api/v3/orders", [auth, "Content-Type: application/json", idempotency], v3Order) +
        http("HTTP/1.1 201 Created", [], v3OrderResponse(baseUrl, v3Order, 5001, "v2"))
    ) +
    sideBySide(
      "Create an order (unversioned)",
      http("POST /api/orders", [auth, "Content-Type: application/json"], SAMPLE_LEGACY_ORDER) +
        http("HTTP/1.1 200 OK", deprecation, { ok: true }),
      http("POST /api/v3/orders", [auth, "Content-Type: application/json", idempotency], v3FromLegacy) +
        http("HTTP/1.1 201 Created", [], v3OrderResponse(baseUrl, v3FromLegacy, 5002, "unversioned"))
    )
}

const sunsetDate = new Date(SUNSET_HTTP_DATE).toISOString().slice(0, 10)
const deprecatedDate = new Date(DEPRECATED_AT_UNIX * 1000).toISOString().slice(0, 10)

const readingUsage = (baseUrl: string): string => {
  const headers = Object.entries(deprecationHeaders(baseUrl)).map(([name, value]) => `${name}: ${value}`).join("\n")
  return "<p>Every answer of a deprecated operation, errors included, carries three headers; they change neither " +
    "body nor behaviour:</p>" + pre(headers) +
    table(["header", "meaning"], [
      [code("Deprecation"), `RFC 9745: the Unix time the operation was deprecated (${deprecatedDate}).`],
      [code("Sunset"), `RFC 8594: when the operation may be removed (${sunsetDate}); removal also depends on observed usage.`],
      [code("Link"), "This page, with <code>rel=deprecation</code>."]
    ]) +
    "<p>Log these headers in your client to find the calls still to migrate. The service counts every call of a " +
    "deprecated operation per API key (operation, count, last use). The operator reads the counts of a Store with:</p>" +
    pre(
      `OPERATOR_TOKEN=… npx signcraft migrate usage --base-url ${baseUrl} --store <store_id> [--json]\n\n` +
        `# or over HTTP:\ncurl -H "Authorization: Bearer $OPERATOR_TOKEN" ${baseUrl}/operator/v1/stores/<store_id>/deprecated-usage`
    ) +
    "<p>Each line (or <code>data[]</code> item) names <code>api_key_id</code>, <code>operation</code> (as in the table " +
    "above), <code>count</code> and <code>last_seen_at</code>. A key is migrated when its counts stop growing; then " +
    "revoke it.</p>"
}

/** The migration guide (`/docs/migration`), the page every deprecation `Link` points to. */
export const migrationPage = (baseUrl: string): string =>
  docPage(
    baseUrl,
    "Migrating from v2",
    `<p>The v2 and unversioned operations are deprecated since ${deprecatedDate} and may be removed from ${sunsetDate}. ` +
      "They keep authenticating, validating and answering as before until then.</p>" +
      "<h2>How to migrate</h2><ol>" +
      "<li>Start with <code>GET /api/v3/stores/me</code> and confirm <code>data.id</code>, <code>data.platform</code> and <code>data.scopes</code>.</li>" +
      "<li>Move reads first, then writes. Send each logical write through one generation only: no dual writes.</li>" +
      "<li>Validate pricing with <code>POST /api/v3/customisers/{customiser_id}/pricing/validate</code> before writing it.</li>" +
      "<li>Send an <code>Idempotency-Key</code> on every v3 write: the same key, method, path and body replays the first " +
      "answer with <code>Idempotency-Replay: true</code>; the same key with another body answers 409 " +
      "<code>idempotency_key_conflict</code>.</li>" +
      "<li>v3 errors are problem documents (<code>application/problem+json</code>); branch on <code>code</code>.</li>" +
      "<li>Keep the old credential until the cutover is verified (see <a href=\"#usage\">deprecated usage</a>), then revoke it; " +
      "use a scoped key instead of a legacy wildcard key.</li></ol>" +
      "<h2>Replacement map</h2>" + replacementTable() +
      "<h2>Field map</h2>" + table(["request", "previous generation", "v3"], FIELD_MAP.map(([where, legacy, v3]) => [
        escapeHtml(where),
        field(legacy),
        field(v3)
      ])) +
      "<h2>Enumerations</h2><p>v3 uses the canonical values; v2 the legacy spellings. Tolerate values you do not know: " +
      "enumerations grow.</p>" + enumTable() +
      "<h2>Examples</h2>" + examples(baseUrl) +
      `<h2 id="usage">Reading deprecated usage</h2>` + readingUsage(baseUrl)
  )
