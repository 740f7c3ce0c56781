import type { DatabaseConfig } from "../../src/storage/database.js"
import { SCOPES } from "../../src/domain/credentials/scopes.js"
import { OPERATOR_TOKEN } from "@signcraft/test-kit"
import { startIntegrator } from "@signcraft/test-kit/integrator"
import { cookiesOf, hiddenFields, pkce, startOAuthApp } from "@signcraft/test-kit/oauth"

const cookieHeader = (jar: Readonly<Record<string, string>>) =>
  Object.entries(jar).map(([name, value]) => `${name}=${value}`).join("; ")

/** The JSON body of an answer the seeding relies on (`{}` when empty); throws when it is not `status`. */
const expectStatus = async (response: Response, status: number, what: string): Promise<Record<string, unknown>> => {
  const text = await response.text()
  if (response.status !== status) throw new Error(`fuzz seeding: ${what} answered ${response.status} ${text.slice(0, 300)}`)
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>)
}

/** The `id` of a v3 envelope's `data`. */
const dataId = (body: Record<string, unknown>) => Number((body.data as Record<string, unknown>).id)

/**
 * Everything the fuzz entries write against, on one database: the real web handler (API, OAuth
 * and agent routes), a merchant with a Store, API keys, customisers, an integration whose
 * create-product URL is a real loopback receiver, a connector grant, and an OAuth session.
 */
export const startFuzzWorld = async (database: DatabaseConfig) => {
  const app = startOAuthApp(database, {
    rateLimitPerIpPerMinute: 10_000_000,
    rateLimitPerKeyPerMinute: 10_000_000,
    registrationLimitPerHour: 10_000_000,
    registrationLimitPerDay: 10_000_000
  })
  await app.ready()
  const integrator = await startIntegrator()

  const send = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    app.fetchApp(path, {
      method,
      headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
  const operator = async (method: string, path: string, body: unknown, status: number) =>
    expectStatus(await send(method, `/operator/v1${path}`, { body, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } }), status, `${method} ${path}`)

  const merchant = await app.seedMerchant(1, "custom")
  const storeId = merchant.storeIds[0] ?? 0
  const keyOf = async (grant: Record<string, unknown>) =>
    String((await operator("POST", `/stores/${storeId}/api-keys`, { mode: "test", ...grant }, 201)).key)
  const v3Key = await keyOf({ scopes: SCOPES })
  const legacyKey = await keyOf({ legacy_wildcard: true })
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

  const newCustomiser = async () =>
    Number((await operator("POST", `/stores/${storeId}/customisers`, {
      name: "Neon letters",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    }, 201)).id)
  const customiserId = await newCustomiser()

  const integration = await operator("POST", `/stores/${storeId}/integrations`, { create_product_url: integrator.url }, 201)
  const integrationId = Number(integration.id)
  integrator.useSecret(String(integration.signing_secret))
  integrator.answer("external_id")

  // A finished design: a product with the external id the v2 and unversioned orders reference.
  const design = await expectStatus(
    await send("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: { integration_id: integrationId, title: "Neon", price: 5000, currency: "USD" } }),
    201,
    "storefront design"
  )
  const externalId = String(design.external_id)

  // A v3 product for v3 order lines.
  const product = await expectStatus(
    await send("POST", `/api/v3/customisers/${customiserId}/products`, {
      body: { integration_id: integrationId, title: "Neon", price_amount: 12500, currency: "USD" },
      headers: bearer(v3Key)
    }),
    201,
    "v3 product"
  )
  const productId = dataId(product)

  // A v3 order, for the read tools.
  const order = await expectStatus(
    await send("POST", "/api/v3/orders", {
      body: { integration_id: integrationId, total_amount: 12500, currency: "USD", line_items: [{ product_id: productId, quantity: 1 }] },
      headers: bearer(v3Key)
    }),
    201,
    "v3 order"
  )
  const orderId = dataId(order)

  // A Store may hold 16 live subscriptions: seeding many runs deletes the oldest to make room,
  // never one a test keeps using for the whole world.
  const kept = new Set<number>()
  const makeRoom = async () => {
    const listed = await send("GET", "/api/v3/webhook-subscriptions?limit=100", { headers: bearer(v3Key) })
    const live = ((await listed.json()) as { readonly data?: ReadonlyArray<{ readonly id: number }> }).data ?? []
    const spare = live.filter(({ id }) => !kept.has(id))
    for (const { id } of spare.slice(0, Math.max(0, spare.length - 6))) {
      await send("DELETE", `/api/v3/webhook-subscriptions/${id}`, { headers: bearer(v3Key) })
    }
  }
  const v3Subscription = async (topic = "order:created", keep = false) => {
    await makeRoom()
    const created = await expectStatus(
      await send("POST", "/api/v3/webhook-subscriptions", { body: { topic, url: "http://127.0.0.1:9/hook" }, headers: bearer(v3Key) }),
      201,
      "v3 webhook subscription"
    )
    const id = dataId(created)
    if (keep) kept.add(id)
    return id
  }
  const v2Webhook = async () => {
    await makeRoom()
    const created = await expectStatus(
      await send("POST", "/api/v2/webhooks", { body: { topic: "order:created", url: "http://127.0.0.1:9/hook" }, headers: bearer(legacyKey) }),
      200,
      "v2 webhook"
    )
    return Number((created.webhook as Record<string, unknown>).webhook_id)
  }

  // A delivery to redeliver: a form submission queues form:submitted to the subscription.
  const formSubscription = await v3Subscription("form:submitted", true)
  await expectStatus(
    await send("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, {
      body: { responses: [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "a@example.com" }] }
    }),
    201,
    "form submission"
  )
  const deliveries = await expectStatus(
    await send("GET", `/api/v3/webhook-subscriptions/${formSubscription}/deliveries`, { headers: bearer(v3Key) }),
    200,
    "delivery log"
  )
  const deliveryId = Number((deliveries.data as Array<{ id: number }>)[0]?.id)
  // That delivery's event (evt_…), to resend and to read.
  const eventId = String((deliveries.data as Array<{ webhook_id: string }>)[0]?.webhook_id)

  // A connector grant for the agent endpoint, for the same merchant and Store.
  const connection = await app.connect({ scopes: SCOPES, merchant })
  const accessToken = connection.tokens.access_token

  // An OAuth client with a signed-in session: the consent form can then be posted again and again.
  const client = await app.newClient()
  const { verifier, challenge } = pkce()
  const authorizationRequest = new URLSearchParams({
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "store:read",
    state: "fuzz",
    resource: app.agentResource
  }).toString()
  const signInPage = await app.fetchApp(`/oauth/authorize?${authorizationRequest}`)
  const csrfJar = cookiesOf(signInPage)
  const signInFields = hiddenFields(await signInPage.text())
  const signInHeaders = { cookie: cookieHeader(csrfJar) }
  const signedIn = await app.form("/oauth/authorize", { ...signInFields, email: merchant.email, password: merchant.password }, signInHeaders)
  if (signedIn.status !== 303) throw new Error(`fuzz seeding: sign-in answered ${signedIn.status}`)
  const sessionJar = { ...csrfJar, ...cookiesOf(signedIn) }
  const consentHeaders = { cookie: cookieHeader(sessionJar) }
  const consentPage = await app.fetchApp(`/oauth/authorize?${authorizationRequest}`, { headers: consentHeaders })
  const consentFields = hiddenFields(await consentPage.text())
  const consentForm = { ...consentFields, scope: ["store:read"], decision: "approve" }

  /** A fresh authorization code of the client, from one more approval of the consent form. */
  const newCode = async () => {
    const approved = await app.form("/oauth/authorize", consentForm, consentHeaders)
    const code = new URL(approved.headers.get("location") ?? "http://invalid/").searchParams.get("code")
    if (code === null) throw new Error(`fuzz seeding: consent answered ${approved.status} without a code`)
    return code
  }

  /** A fresh connection (connector grant) of the Store: one more code, exchanged for tokens. */
  const newConnection = async () => {
    const tokens = await app.form("/oauth/token", {
      grant_type: "authorization_code",
      client_id: client.clientId,
      code: await newCode(),
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      resource: app.agentResource
    })
    await expectStatus(tokens, 200, "token exchange")
    const listed = await operator("GET", `/stores/${storeId}/connections`, undefined, 200)
    return Math.max(...(listed.data as Array<{ id: number }>).map((connection) => connection.id))
  }

  let people = 0
  /** A fresh person who can sign in (sign-in attempts are limited per email), of the merchant's company unless told. */
  const newPerson = async (companyId = merchant.companyId) => {
    people += 1
    const email = `fuzz-person-${people}-${Date.now()}@example.com`
    const password = "correct horse battery"
    const person = await operator("POST", "/persons", { company_id: companyId, email, password }, 201)
    return { id: Number(person.id), email, password }
  }
  let keys = 0
  /** A fresh, unique name for whatever must not collide. */
  const unique = (prefix: string) => {
    keys += 1
    return `${prefix}-${keys}`
  }

  const dispose = async () => {
    await integrator.close()
    await app.dispose()
  }

  return {
    app,
    send,
    operator,
    merchant,
    storeId,
    v3Key,
    legacyKey,
    bearer,
    newCustomiser,
    customiserId,
    integrationId,
    externalId,
    productId,
    orderId,
    v3Subscription,
    v2Webhook,
    formSubscription,
    deliveryId,
    eventId,
    accessToken,
    client,
    verifier,
    signInFields,
    signInHeaders,
    consentForm,
    consentHeaders,
    newCode,
    newConnection,
    newPerson,
    unique,
    dispose
  }
}

/** The seeded state the fuzz entries write against. */
export type FuzzWorld = Awaited<ReturnType<typeof startFuzzWorld>>
