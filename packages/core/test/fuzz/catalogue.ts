import { randomUUID } from "node:crypto"
import { OPERATOR_TOKEN } from "@signcraft/test-kit"
import { simpleLetterContent, simpleLetterContentV2 } from "@signcraft/test-kit/pricing-fixtures"
import type { ErrorFormat } from "./shapes.js"
import type { FuzzWorld } from "./world.js"

/** Why a valid request is being prepared: to be spoiled, or to show the service still works. */
export type Purpose = "mutate" | "valid"

/** One valid request of an entry: its path parameters, body and headers. */
export interface Prepared {
  readonly params: Readonly<Record<string, string>>
  /** A JSON value, form parameters (plain, not encoded), or undefined for no body. */
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

/** One write endpoint (or agent tool) of the fuzz suite and how to make a valid request to it. */
export interface FuzzEntry {
  /** `METHOD /path/{param}` as the API defines it, or `tool <name>` for an agent tool. */
  readonly endpoint: string
  /** Unique among entries: the endpoint, with the variant when one endpoint has several forms. */
  readonly name: string
  readonly format: ErrorFormat
  readonly encoding: "json" | "form" | "none"
  readonly contentType: string
  /** The request path, `{param}` standing for each path parameter. */
  readonly path: string
  readonly method: string
  /** The status of the valid request. */
  readonly success: number
  readonly prepare: (world: FuzzWorld, purpose: Purpose) => Promise<Prepared>
}

// Pricing identities are the server's (docs/pricing-ids.md): valid documents reference
// sizes by key and leave every id to the server.
const withoutIds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).filter(([key]) => !["size_id", "price_list_id", "pricing_id"].includes(key)).map(([key, item]) => [key, withoutIds(item)])
    )
  }
  return value
}
const pricingV3 = () => withoutIds(simpleLetterContent())
const pricingV2 = () => withoutIds(simpleLetterContentV2())
const pricingPatch = () => ({
  sheet_pricing: { rows: [{ width_limit_cm: 80, height_limit_cm: 40, base_price: 4000, price_per_sq_cm: 0.03 }] },
  base_pricing: { mode: "included_in_price_lists" }
})

const address = {
  first_name: "Ada",
  last_name: "Lovelace",
  company: null,
  email: "ada@example.com",
  phone: "+44 20 7946 0000",
  address_1: "12 Analytical Row",
  address_2: "Flat 2",
  city: "London",
  province: "London",
  postcode: "N1 9GU",
  country: "GB"
}

// One lazily created value per world (a customiser of an entry's own, a subscription, …).
const perWorld = <A>(make: (world: FuzzWorld) => Promise<A>) => {
  const made = new WeakMap<FuzzWorld, Promise<A>>()
  return (world: FuzzWorld): Promise<A> => {
    const existing = made.get(world)
    if (existing !== undefined) return existing
    const created = make(world)
    made.set(world, created)
    return created
  }
}

const operatorHeaders = { authorization: `Bearer ${OPERATOR_TOKEN}` }
const v3Headers = (world: FuzzWorld, idempotent = true) => ({
  ...world.bearer(world.v3Key),
  ...(idempotent ? { "idempotency-key": randomUUID() } : {})
})
const legacyHeaders = (world: FuzzWorld) => world.bearer(world.legacyKey)

type EntrySpec = Omit<FuzzEntry, "name" | "endpoint" | "encoding" | "contentType"> & {
  readonly variant?: string
  readonly encoding?: FuzzEntry["encoding"]
  readonly contentType?: string
}

const entry = (spec: EntrySpec): FuzzEntry => {
  const endpoint = `${spec.method} ${spec.path}`
  return {
    ...spec,
    endpoint,
    name: spec.variant === undefined ? endpoint : `${endpoint} (${spec.variant})`,
    encoding: spec.encoding ?? "json",
    contentType: spec.contentType ?? (spec.encoding === "form" ? "application/x-www-form-urlencoded" : "application/json")
  }
}

const putCustomiser = perWorld((world) => world.newCustomiser())
const patchCustomiser = perWorld((world) => world.newCustomiser())
const v2Customiser = perWorld((world) => world.newCustomiser())
const patchedSubscription = perWorld((world) => world.v3Subscription("order:created", true))
const replacedV2Webhook = perWorld((world) => world.v2Webhook())
const patchedIntegration = perWorld(async (world) =>
  Number((await world.operator("POST", `/stores/${world.storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/p" }, 201)).id)
)
const signInPerson = perWorld((world) => world.newPerson())
// Members are removed from a company of their own: a spoiled path can never reach the merchant's.
const memberCompany = perWorld(async (world) => Number((await world.operator("POST", "/companies", { name: "Fuzz members" }, 201)).id))
const memberToRemove = perWorld(async (world) => world.newPerson(await memberCompany(world)))
// Pricing to patch: a whole, valid document first, whatever earlier patches left.
const pricedForPatch = async (world: FuzzWorld) => {
  const id = await patchCustomiser(world)
  const put = await world.send("PUT", `/api/v3/customisers/${id}/pricing`, { body: pricingV3(), headers: v3Headers(world) })
  if (put.status !== 200) throw new Error(`fuzz: pricing PUT before a patch answered ${put.status}`)
  return id
}

const v3Entries: ReadonlyArray<FuzzEntry> = [
  entry({
    method: "PUT",
    path: "/api/v3/customisers/{customiser_id}/pricing",
    format: "problem",
    success: 200,
    prepare: async (world) => ({ params: { customiser_id: String(await putCustomiser(world)) }, body: pricingV3(), headers: v3Headers(world) })
  }),
  entry({
    method: "PATCH",
    path: "/api/v3/customisers/{customiser_id}/pricing",
    format: "problem",
    success: 200,
    prepare: async (world) => ({ params: { customiser_id: String(await pricedForPatch(world)) }, body: pricingPatch(), headers: v3Headers(world) })
  }),
  entry({
    method: "POST",
    path: "/api/v3/customisers/{customiser_id}/pricing/validate",
    format: "problem",
    success: 200,
    prepare: async (world) => ({ params: { customiser_id: String(await putCustomiser(world)) }, body: pricingV3(), headers: v3Headers(world, false) })
  }),
  entry({
    method: "POST",
    path: "/api/v3/customisers/{customiser_id}/products",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: { customiser_id: String(world.customiserId) },
      body: {
        integration_id: world.integrationId,
        store_product_id: "sku-1",
        title: "Custom neon",
        price_amount: 12500,
        currency: "USD",
        width_cm: 60,
        height_cm: 20.5,
        customisations: [{ key: "text", label: "Text", value: "Hello" }],
        artwork: { preview_image_url: "https://cdn.example.com/p.png", svg_url: "https://cdn.example.com/p.svg" }
      },
      headers: v3Headers(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/v3/orders",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: {},
      body: {
        integration_id: world.integrationId,
        store_order_id: "A-1",
        store_order_number: "1001",
        total_amount: 25000,
        currency: "USD",
        shipping_method: "Standard",
        customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: null },
        billing_address: { ...address },
        shipping_address: { ...address },
        line_items: [{ product_id: world.productId, quantity: 2 }]
      },
      headers: v3Headers(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/v3/webhook-subscriptions",
    format: "problem",
    success: 201,
    prepare: async (world) => ({ params: {}, body: { topic: "order:created", url: "http://127.0.0.1:9/hook" }, headers: v3Headers(world) })
  }),
  entry({
    method: "PATCH",
    path: "/api/v3/webhook-subscriptions/{webhook_id}",
    format: "problem",
    success: 200,
    prepare: async (world) => ({
      params: { webhook_id: String(await patchedSubscription(world)) },
      body: { topic: "product:created", url: "http://127.0.0.1:9/other" },
      headers: v3Headers(world, false)
    })
  }),
  entry({
    method: "DELETE",
    path: "/api/v3/webhook-subscriptions/{webhook_id}",
    format: "problem",
    encoding: "none",
    success: 200,
    prepare: async (world) => ({ params: { webhook_id: String(await world.v3Subscription()) }, body: undefined, headers: v3Headers(world, false) })
  }),
  entry({
    method: "POST",
    path: "/api/v3/webhook-subscriptions/{webhook_id}/deliveries/{delivery_id}/redeliver",
    format: "problem",
    encoding: "none",
    success: 202,
    prepare: async (world) => ({
      params: { webhook_id: String(world.formSubscription), delivery_id: String(world.deliveryId) },
      body: undefined,
      headers: v3Headers(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/v3/webhook-subscriptions/{webhook_id}/events/{event_id}/resend",
    format: "problem",
    encoding: "none",
    success: 202,
    prepare: async (world) => ({
      params: { webhook_id: String(world.formSubscription), event_id: world.eventId },
      body: undefined,
      headers: v3Headers(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/v3/webhook-subscriptions/{webhook_id}/recover",
    format: "problem",
    success: 202,
    prepare: async (world) => ({
      params: { webhook_id: String(world.formSubscription) },
      body: { since: "2026-01-01T00:00:00Z" },
      headers: v3Headers(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/v3/webhook-subscriptions/{webhook_id}/test",
    format: "problem",
    encoding: "none",
    success: 202,
    prepare: async (world) => ({
      params: { webhook_id: String(world.formSubscription) },
      body: undefined,
      headers: v3Headers(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/v3/webhook-subscriptions/{webhook_id}/rotate-secret",
    format: "problem",
    encoding: "none",
    success: 200,
    prepare: async (world) => ({
      params: { webhook_id: String(await world.v3Subscription()) },
      body: undefined,
      headers: v3Headers(world)
    })
  })
]

const legacyEntries: ReadonlyArray<FuzzEntry> = [
  entry({
    method: "PUT",
    path: "/api/v2/customisers/{customiser}/pricing",
    format: "legacy",
    success: 200,
    prepare: async (world) => ({ params: { customiser: String(await v2Customiser(world)) }, body: { pricing: pricingV2() }, headers: legacyHeaders(world) })
  }),
  entry({
    method: "POST",
    path: "/api/v2/webhooks",
    format: "legacy",
    success: 200,
    prepare: async (world) => ({
      params: {},
      body: { topic: "order:created", url: "http://127.0.0.1:9/hook", meta: { source: "fuzz", nested: { a: [1, 2] } } },
      headers: legacyHeaders(world)
    })
  }),
  entry({
    method: "PUT",
    path: "/api/v2/webhooks/{webhook_id}",
    format: "legacy",
    success: 200,
    prepare: async (world) => ({
      params: { webhook_id: String(await replacedV2Webhook(world)) },
      body: { topic: "product:created", url: "http://127.0.0.1:9/v2", meta: null },
      headers: legacyHeaders(world)
    })
  }),
  entry({
    method: "DELETE",
    path: "/api/v2/webhooks/{webhook_id}",
    format: "legacy",
    encoding: "none",
    success: 200,
    prepare: async (world) => ({ params: { webhook_id: String(await world.v2Webhook()) }, body: undefined, headers: legacyHeaders(world) })
  }),
  entry({
    method: "POST",
    path: "/api/v2/orders",
    format: "legacy",
    success: 200,
    prepare: async (world) => ({
      params: {},
      body: {
        integration_id: world.integrationId,
        external_id: "ext-1",
        external_order_number: "#1",
        currency: "USD",
        shipping_line: "Post",
        billing_address: { first_name: "A", last_name: "B", email: "a@b.c", phone: null, address_1: "x", address_2: null, city: "c", province: "p", postcode: "1", country: "GB" },
        shipping_address: { first_name: "A", last_name: "B", address_1: "x", city: "c", province: "p", postcode: "1", country: "GB" },
        products: [{ external_id: world.externalId, quantity: 3, price: 5000 }]
      },
      headers: legacyHeaders(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/orders",
    format: "legacy",
    success: 200,
    prepare: async (world) => ({
      params: {},
      body: {
        order_id: "9001",
        order_number: "R-9001",
        order_total: 258.99,
        order_currency: "usd",
        email: "buyer@example.com",
        products: [world.externalId],
        shipping_address: { name: "Ludwig van Beethoven", phone: null, address1: "Bonngasse 20", address2: null, city: "Bonn", province: null, country: "DE", zip: "53111" },
        shipping_line: "DHL"
      },
      headers: legacyHeaders(world)
    })
  }),
  entry({
    method: "POST",
    path: "/api/customisers/{customiser}/products",
    format: "legacy",
    success: 200,
    prepare: async (world) => ({
      params: { customiser: String(world.customiserId) },
      body: {
        product_id: "legacy-42",
        cart: { text: "Bar & Grill", font: { name: "Neon Script" }, colours: ["pink", "blue"] },
        price_breakdown: { total: 129.5 },
        custom_background_path: "https://cdn.example.com/bg.png",
        logo_original_path: null,
        product_type_paths: { letters: "https://cdn.example.com/l.svg" }
      },
      headers: legacyHeaders(world)
    })
  })
]

const importedAt = "2026-03-01T12:00:00Z"

const operatorEntries: ReadonlyArray<FuzzEntry> = [
  entry({
    method: "POST",
    path: "/operator/v1/companies",
    format: "problem",
    success: 201,
    prepare: async () => ({ params: {}, body: { name: "Fuzz Co" }, headers: operatorHeaders })
  }),
  entry({
    method: "POST",
    path: "/operator/v1/stores",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: {},
      body: { company_id: world.merchant.companyId, name: "Fuzz store", platform: "shopify", currency: "EUR" },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "POST",
    path: "/operator/v1/persons",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: {},
      body: { company_id: world.merchant.companyId, email: `${world.unique("fuzz")}@example.com`, password: "correct horse battery", name: "Fuzz" },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "DELETE",
    path: "/operator/v1/companies/{company_id}/members/{person_id}",
    format: "problem",
    encoding: "none",
    success: 204,
    // Creating a person hashes a password (slow): the spoiled requests share one, the final check gets its own.
    prepare: async (world, purpose) => {
      const companyId = await memberCompany(world)
      const person = purpose === "valid" ? await world.newPerson(companyId) : await memberToRemove(world)
      return { params: { company_id: String(companyId), person_id: String(person.id) }, body: undefined, headers: operatorHeaders }
    }
  }),
  entry({
    method: "POST",
    path: "/operator/v1/stores/{store_id}/api-keys",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: { store_id: String(world.storeId) },
      body: { mode: "test", scopes: ["store:read", "orders:write"], legacy_wildcard: false, expires_at: "2099-01-01T00:00:00Z" },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "DELETE",
    path: "/operator/v1/api-keys/{key_id}",
    format: "problem",
    encoding: "none",
    success: 204,
    prepare: async (world) => ({
      params: { key_id: String((await world.operator("POST", `/stores/${world.storeId}/api-keys`, { mode: "test", scopes: ["store:read"] }, 201)).id) },
      body: undefined,
      headers: operatorHeaders
    })
  }),
  entry({
    method: "POST",
    path: "/operator/v1/stores/{store_id}/customisers",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: { store_id: String(world.storeId) },
      body: { name: "Fuzz letters", product_family: "neon", selection_mode: "single_style", pricing_model: "simple_letter", active: true, pricing: pricingV3() },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "DELETE",
    path: "/operator/v1/connections/{connection_id}",
    format: "problem",
    encoding: "none",
    success: 204,
    prepare: async (world) => ({ params: { connection_id: String(await world.newConnection()) }, body: undefined, headers: operatorHeaders })
  }),
  entry({
    method: "POST",
    path: "/operator/v1/stores/{store_id}/integrations",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: { store_id: String(world.storeId) },
      body: { create_product_url: "http://127.0.0.1:9/products", enabled: false, name: "Fuzz integration" },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "PATCH",
    path: "/operator/v1/integrations/{integration_id}",
    format: "problem",
    success: 200,
    prepare: async (world) => ({
      params: { integration_id: String(await patchedIntegration(world)) },
      body: { enabled: true, create_product_url: "http://127.0.0.1:9/q" },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "POST",
    path: "/operator/v1/stores/{store_id}/orders/import",
    format: "problem",
    success: 200,
    prepare: async (world) => ({
      params: { store_id: String(world.storeId) },
      body: {
        orders: [
          { created_at: importedAt, total_amount: 1999, currency: "USD", customer: { first_name: "Ada", last_name: null, email: "ada@example.com", phone: null } },
          { created_at: "2026-03-02T08:30:00.5+01:00", total_amount: 0, currency: "EUR", customer: null }
        ]
      },
      headers: operatorHeaders
    })
  }),
  entry({
    method: "POST",
    path: "/operator/v1/stores/{store_id}/products/import",
    format: "problem",
    success: 200,
    prepare: async (world) => ({
      params: { store_id: String(world.storeId) },
      body: {
        products: [
          { created_at: importedAt, title: "Old neon", price_amount: 9900, currency: "USD", legacy: true },
          { created_at: importedAt, title: "New neon", price_amount: 100, currency: "GBP" }
        ]
      },
      headers: operatorHeaders
    })
  })
]

const storefrontEntries: ReadonlyArray<FuzzEntry> = [
  entry({
    method: "POST",
    path: "/storefront/v1/customisers/{customiser_id}/designs",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: { customiser_id: String(world.customiserId) },
      body: {
        integration_id: world.integrationId,
        title: "Neon",
        price: 5000,
        compare_price: 6000,
        currency: "USD",
        description: "A pink neon sign",
        customisations: [{ key: "text", label: "Text", value: "Open" }],
        product_image_url: "https://cdn.example.com/d.png"
      },
      headers: {}
    })
  }),
  entry({
    method: "POST",
    path: "/storefront/v1/customisers/{customiser_id}/form-submissions",
    format: "problem",
    success: 201,
    prepare: async (world) => ({
      params: { customiser_id: String(world.customiserId) },
      body: {
        form_id: 3,
        responses: [
          { field_id: "email", name: "Email", input_type: "EMAIL", value: "shopper@example.com" },
          { field_id: 7, name: "Width", input_type: "NUMBER", value: "120" }
        ]
      },
      headers: {}
    })
  })
]

const oauthEntries: ReadonlyArray<FuzzEntry> = [
  entry({
    method: "POST",
    path: "/oauth/register",
    format: "oauth",
    success: 201,
    prepare: async () => ({
      params: {},
      body: {
        client_name: "Fuzz agent",
        redirect_uris: ["http://127.0.0.1:7777/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "store:read pricing:read"
      },
      headers: {}
    })
  }),
  entry({
    method: "POST",
    path: "/oauth/token",
    format: "oauth",
    encoding: "form",
    success: 200,
    prepare: async (world) => ({
      params: {},
      body: {
        grant_type: "authorization_code",
        client_id: world.client.clientId,
        code: await world.newCode(),
        code_verifier: world.verifier,
        redirect_uri: world.client.redirectUri,
        resource: world.app.agentResource
      },
      headers: {}
    })
  }),
  entry({
    method: "POST",
    path: "/oauth/revoke",
    format: "oauth",
    encoding: "form",
    success: 200,
    prepare: async (world) => ({ params: {}, body: { client_id: world.client.clientId, token: "sc_rt_not_a_live_token", token_type_hint: "refresh_token" }, headers: {} })
  }),
  entry({
    method: "POST",
    path: "/oauth/authorize",
    variant: "sign-in form",
    format: "oauth-page",
    encoding: "form",
    success: 303,
    prepare: async (world, purpose) => {
      // Sign-in attempts are limited per email: the final check signs a fresh person in.
      const person = purpose === "valid" ? await world.newPerson() : await signInPerson(world)
      return { params: {}, body: { ...world.signInFields, email: person.email, password: person.password }, headers: world.signInHeaders }
    }
  }),
  entry({
    method: "POST",
    path: "/oauth/authorize",
    variant: "consent form",
    format: "oauth-page",
    encoding: "form",
    success: 303,
    prepare: async (world) => ({ params: {}, body: world.consentForm, headers: world.consentHeaders })
  })
]

/** The valid arguments of each agent tool. */
const toolArguments: Readonly<Record<string, (world: FuzzWorld) => Promise<Record<string, unknown>>>> = {
  get_store: async () => ({}),
  list_customisers: async () => ({ limit: 5 }),
  get_customiser: async (world) => ({ customiser_id: world.customiserId }),
  get_pricing: async (world) => ({ customiser_id: world.customiserId }),
  validate_pricing: async (world) => ({ customiser_id: await putCustomiser(world), pricing: pricingV3() }),
  replace_pricing: async (world) => ({ customiser_id: await putCustomiser(world), pricing: pricingV3() }),
  patch_pricing: async (world) => ({ customiser_id: await pricedForPatch(world), patch: pricingPatch() }),
  get_analytics_summary: async () => ({ period: "30d" }),
  list_orders: async () => ({ limit: 5 }),
  get_order: async (world) => ({ order_id: world.orderId }),
  get_product: async (world) => ({ product_id: world.productId }),
  list_quotes: async () => ({ limit: 5 }),
  list_webhook_subscriptions: async () => ({ limit: 5 }),
  list_events: async () => ({ limit: 5 }),
  get_event: async (world) => ({ event_id: world.eventId }),
  list_webhook_deliveries: async (world) => ({ webhook_id: world.formSubscription, limit: 5 }),
  create_webhook_subscription: async () => ({ topic: "order:created", url: "http://127.0.0.1:9/agent" }),
  update_webhook_subscription: async (world) => ({ webhook_id: await patchedSubscription(world), url: "http://127.0.0.1:9/agent2" }),
  delete_webhook_subscription: async (world) => ({ webhook_id: await world.v3Subscription() })
}

const toolEntries: ReadonlyArray<FuzzEntry> = Object.entries(toolArguments).map(([tool, args]) => ({
  endpoint: `tool ${tool}`,
  name: `tool ${tool}`,
  format: "agent",
  encoding: "json",
  contentType: "application/json",
  method: "POST",
  path: "/mcp",
  success: 200,
  prepare: async (world) => ({
    params: {},
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: await args(world) } },
    headers: {
      ...world.bearer(world.accessToken),
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18"
    }
  })
}))

/** Every fuzz entry: each write endpoint of every generation, the OAuth forms and every agent tool. */
export const FUZZ_ENTRIES: ReadonlyArray<FuzzEntry> = [
  ...v3Entries,
  ...legacyEntries,
  ...operatorEntries,
  ...storefrontEntries,
  ...oauthEntries,
  ...toolEntries
]
