import { Effect } from "effect"
import { Outbox } from "../../packages/core/src/services/webhooks/outbox.js"
import { sampleEventPayload } from "../../packages/core/src/domain/webhooks/topics.js"
import { cookiesOf, hiddenFields, pkce } from "../oauth/harness.js"
import { OPERATOR_TOKEN } from "./app.js"
import { simpleLetterContent } from "./pricing-fixtures.js"
import type { startLoopbackServer } from "./loopback.js"
import type { Receiver } from "./receiver.js"

type Server = Awaited<ReturnType<typeof startLoopbackServer>>

const MS_PER_DAY = 86_400_000

/** Orders the world imports: `[days ago, minor units]`, all in USD, inside the last 30 complete days. */
export const WORLD_ORDERS: ReadonlyArray<readonly [number, number]> = [[2, 12_345], [2, 5_000], [9, 25_000], [20, 7_655]]

/** The redirect URI of the world's connected agent: its host is what the dashboard names. */
export const AGENT_REDIRECT_URI = "http://127.0.0.1:7777/callback"

/**
 * A Store as a merchant would find it in the dashboard, made through the public and operator
 * APIs only: a person who can sign in, orders over the last month, a wildcard key that still calls
 * v2, a webhook subscription to `receiver` with a delivery in it, and a connected agent.
 */
export const seedDashboardWorld = async (server: Server, receiver: Receiver, label = "Northwind") => {
  const json = async (method: string, path: string, body?: unknown, key = OPERATOR_TOKEN) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as any }
  }
  const company = await json("POST", "/operator/v1/companies", { name: `${label} Trading` })
  const store = await json("POST", "/operator/v1/stores", { company_id: company.body.id, name: `${label} Signs`, currency: "USD" })
  const storeId = store.body.id as number
  const email = `${label.toLowerCase()}@example.com`
  const password = "correct horse battery staple"
  await json("POST", "/operator/v1/persons", { company_id: company.body.id, email, password, name: `${label} Owner` })

  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate())
  await json("POST", `/operator/v1/stores/${storeId}/orders/import`, {
    orders: WORLD_ORDERS.map(([daysAgo, amount]) => ({
      created_at: new Date(today - daysAgo * MS_PER_DAY + 3_600_000).toISOString(),
      total_amount: amount,
      currency: "USD"
    }))
  })

  await json("POST", `/operator/v1/stores/${storeId}/customisers`, {
    name: "Neon letters",
    product_family: "neon",
    selection_mode: "single_style",
    pricing_model: "simple_letter",
    pricing: simpleLetterContent()
  })

  // An older integration that still calls the previous generation.
  const legacy = await json("POST", `/operator/v1/stores/${storeId}/api-keys`, { mode: "live", legacy_wildcard: true })
  const legacyKey = legacy.body.key as string
  await json("GET", "/api/v2/customisers", undefined, legacyKey)

  const apiKey = (await json("POST", `/operator/v1/stores/${storeId}/api-keys`, {
    mode: "test",
    scopes: ["webhooks:read", "webhooks:write", "analytics:read"]
  })).body.key as string
  const subscription = await json("POST", "/api/v3/webhook-subscriptions", { topic: "order:created", url: receiver.url("/orders") }, apiKey)
  await server.run(Effect.gen(function*() {
    yield* (yield* Outbox).enqueue(storeId, "order:created", sampleEventPayload("order:created"))
  }))

  const agent = await connectAgent(server.url, email, password)
  return { storeId, email, password, legacyKey, apiKey, subscriptionId: subscription.body.data.id as number, agent }
}

/** Connects an agent through registration, the consent screen and the token endpoint, as a real connector does. */
export const connectAgent = async (baseUrl: string, email: string, password: string) => {
  const jar = new Map<string, string>()
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size > 0) headers.set("cookie", [...jar].map(([n, v]) => `${n}=${v}`).join("; "))
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers, redirect: "manual" })
    for (const [name, value] of Object.entries(cookiesOf(response))) jar.set(name, value)
    return response
  }
  const form = (path: string, fields: Record<string, string | ReadonlyArray<string>>) => {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(fields)) for (const item of typeof value === "string" ? [value] : value) body.append(name, item)
    return send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() })
  }
  const registered = await (await send("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Sign Studio Assistant",
      redirect_uris: [AGENT_REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none"
    })
  })).json() as { client_id: string }
  const { verifier, challenge } = pkce()
  const query = new URLSearchParams({
    response_type: "code",
    client_id: registered.client_id,
    redirect_uri: AGENT_REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "store:read analytics:read",
    state: "st"
  }).toString()
  const signInPage = await (await send(`/oauth/authorize?${query}`)).text()
  await form("/oauth/authorize", { ...hiddenFields(signInPage), email, password })
  const consentPage = await (await send(`/oauth/authorize?${query}`)).text()
  const approved = await form("/oauth/authorize", { ...hiddenFields(consentPage), scope: ["store:read", "analytics:read"], decision: "approve" })
  const code = new URL(approved.headers.get("location") ?? "").searchParams.get("code") ?? ""
  const tokens = await (await form("/oauth/token", {
    grant_type: "authorization_code",
    client_id: registered.client_id,
    code,
    code_verifier: verifier,
    redirect_uri: AGENT_REDIRECT_URI,
    resource: `${baseUrl}/mcp`
  })).json() as { access_token: string; refresh_token: string }
  if (typeof tokens.refresh_token !== "string") throw new Error(`the agent was not connected: ${JSON.stringify(tokens)}`)
  return { clientId: registered.client_id, ...tokens }
}
