import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { createHash, randomBytes } from "node:crypto"
import { clientAddressContext, type DatabaseConfig, defaultSettings, layerDatabase, makeAgentWebHandler, makeWebHandler, type ServiceSettings } from "@signcraft/core"
import { OPERATOR_TOKEN } from "./app.js"
import type { AdjustableClock } from "./clock.js"

/** A PKCE pair. */
export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

/** The value of each hidden input of an HTML form. */
export const hiddenFields = (html: string): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const [, name, value] = match
    if (name !== undefined && value !== undefined) {
      out[name] = value.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&")
    }
  }
  return out
}

/** `name=value` of each Set-Cookie of a response, joined for a Cookie header. */
export const cookiesOf = (response: Response): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const at = pair?.indexOf("=") ?? -1
    if (pair !== undefined && at > 0) out[pair.slice(0, at)] = pair.slice(at + 1)
  }
  return out
}

const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar).map(([name, value]) => `${name}=${value}`).join("; ")

/** The signcraft handlers (and the agent origin's, when `mcpUrl` is set) over one database. */
export const startOAuthApp = (
  database: DatabaseConfig,
  overrides: Partial<ServiceSettings> = {},
  harness: {
    readonly clock?: AdjustableClock
    /** Settings of the twin instance that differ from the first's (another agent origin, say). */
    readonly twin?: Partial<ServiceSettings>
  } = {}
) => {
  const settings = defaultSettings({
    environment: "test",
    operatorToken: Redacted.make(OPERATOR_TOKEN),
    rateLimitPerIpPerMinute: 100_000,
    rateLimitPerKeyPerMinute: 10_000,
    registrationLimitPerHour: 1000,
    registrationLimitPerDay: 1000,
    ...overrides
  })
  // The database is built once and handed to both handlers as a ready context: each
  // handler keeps its own router (and services), as the two listeners of the server do.
  const dbScope = Scope.makeUnsafe()
  const built = Effect.runPromise(Layer.buildWithScope(layerDatabase(database), dbScope))
  built.catch(() => {})
  const migrated = Layer.effectContext(Effect.promise(() => built))
  // An injected clock rides in with the database: every request of every handler then reads it.
  const db = harness.clock === undefined ? migrated : Layer.merge(migrated, harness.clock.layer)
  /** Runs an effect against the app's database (to age rows past their expiry, for instance). */
  const runSql = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
    built.then((context) => Effect.runPromise(Effect.provideContext(effect, context)))
  const app = makeWebHandler({ settings }, db)
  const agentApp = settings.mcpUrl === undefined ? undefined : makeAgentWebHandler({ settings }, db)
  const baseOrigin = settings.baseUrl
  // A path (`/oauth/token`) is the service's, under the base URL and its path; a URL is taken as it is.
  const resolve = (url: string, baseUrl: string): URL => new URL(url.startsWith("/") ? `${baseUrl}${url}` : url)
  const agentOrigin = settings.mcpUrl === undefined ? settings.baseUrl : new URL(settings.mcpUrl).origin

  /** Sends a request to whichever origin the URL names, from `clientIp` when given. */
  const fetchApp = (url: string, init: RequestInit = {}, clientIp?: string): Promise<Response> => {
    const target = resolve(url, baseOrigin)
    const handler = agentApp !== undefined && target.origin === agentOrigin ? agentApp : app
    return clientIp === undefined
      ? handler.handler(new Request(target, init))
      : handler.handler(new Request(target, init), clientAddressContext(clientIp))
  }
  /**
   * A second instance of the API over the same database, built on first use: its own services and
   * caches, as another server process would have (serving `{base_url}/mcp` too).
   */
  const twinSettings: ServiceSettings = { ...settings, ...harness.twin }
  const twinAgentUrl = twinSettings.mcpUrl ?? `${twinSettings.baseUrl}/mcp`
  let twinApp: ReturnType<typeof makeWebHandler> | undefined
  let twinAgentApp: ReturnType<typeof makeAgentWebHandler> | undefined
  const fetchTwin = (url: string, init: RequestInit = {}): Promise<Response> => {
    const target = resolve(url, twinSettings.baseUrl)
    if (twinSettings.mcpUrl !== undefined && target.origin === new URL(twinSettings.mcpUrl).origin) {
      twinAgentApp ??= makeAgentWebHandler({ settings: twinSettings }, db)
      return twinAgentApp.handler(new Request(target, init))
    }
    twinApp ??= makeWebHandler({ settings: twinSettings }, db)
    return twinApp.handler(new Request(target, init))
  }
  const readJson = async (response: Response) => {
    const text = await response.text()
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    const body: any = text === "" ? undefined : JSON.parse(text)
    return { status: response.status, headers: response.headers, body }
  }
  const json = async (url: string, init: RequestInit = {}) => {
    const response = await fetchApp(url, init)
    const text = await response.text()
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    const body: any = text === "" ? undefined : JSON.parse(text)
    return { status: response.status, headers: response.headers, body }
  }
  const operator = (method: string, path: string, body?: unknown) =>
    json(`/operator/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const form = (
    path: string,
    params: Record<string, string | ReadonlyArray<string>>,
    headers: Record<string, string> = {},
    clientIp?: string
  ) => {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(params)) {
      for (const item of typeof value === "string" ? [value] : value) body.append(name, item)
    }
    return fetchApp(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: body.toString()
    }, clientIp)
  }
  const formJson = async (path: string, params: Record<string, string | ReadonlyArray<string>>) => {
    const response = await form(path, params)
    const text = await response.text()
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    const body: any = text === "" ? undefined : JSON.parse(text)
    return { status: response.status, headers: response.headers, body }
  }

  const register = (metadata: Record<string, unknown>) =>
    json("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(metadata) })

  let seq = 0
  /** A company with `stores` Stores and a member person who can sign in. */
  const seedMerchant = async (stores = 1, platform = "shopify") => {
    seq += 1
    const company = await operator("POST", "/companies", { name: `Company ${seq}` })
    const storeIds: Array<number> = []
    for (let i = 0; i < stores; i++) {
      const store = await operator("POST", "/stores", { company_id: company.body.id, name: `Store ${seq}.${i}`, platform })
      storeIds.push(store.body.id)
    }
    const email = `person${seq}-${randomBytes(4).toString("hex")}@example.com`
    const password = "correct horse battery"
    const person = await operator("POST", "/persons", { company_id: company.body.id, email, password })
    return { companyId: company.body.id as number, storeIds, personId: person.body.id as number, email, password }
  }

  const agentResource = settings.mcpUrl ?? `${settings.baseUrl}/mcp`
  const agentUrl = settings.mcpUrl ?? `${settings.baseUrl}/mcp`

  /** Registers a client for `redirectUri`. */
  const newClient = async (redirectUri = "http://127.0.0.1:7777/callback", extra: Record<string, unknown> = {}) => {
    const res = await register({
      client_name: "Test Agent",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      ...extra
    })
    if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`)
    return { clientId: res.body.client_id as string, redirectUri }
  }

  /** Walks sign-in and consent with form posts; returns the final redirect. */
  const consent = async (options: {
    readonly clientId: string
    readonly redirectUri: string
    readonly merchant: { readonly email: string; readonly password: string }
    readonly scopes?: ReadonlyArray<string>
    readonly approve?: ReadonlyArray<string>
    readonly decision?: "approve" | "deny"
    readonly storeId?: number
    readonly challenge?: string
    readonly resource?: string
    readonly state?: string
  }) => {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      code_challenge: options.challenge ?? pkce().challenge,
      code_challenge_method: "S256",
      scope: (options.scopes ?? ["store:read"]).join(" "),
      state: options.state ?? "st-1",
      ...(options.resource === undefined ? {} : { resource: options.resource })
    }).toString()
    const signInPage = await fetchApp(`/oauth/authorize?${query}`)
    const jar = cookiesOf(signInPage)
    const signInFields = hiddenFields(await signInPage.text())
    const signedIn = await form("/oauth/authorize", {
      ...signInFields,
      email: options.merchant.email,
      password: options.merchant.password
    }, { cookie: cookieHeader(jar) })
    Object.assign(jar, cookiesOf(signedIn))
    const consentPage = await fetchApp(`/oauth/authorize?${query}`, { headers: { cookie: cookieHeader(jar) } })
    const html = await consentPage.text()
    const fields = hiddenFields(html)
    const final = await form("/oauth/authorize", {
      ...fields,
      ...(options.storeId === undefined ? {} : { store_id: String(options.storeId) }),
      scope: options.approve ?? options.scopes ?? ["store:read"],
      decision: options.decision ?? "approve"
    }, { cookie: cookieHeader(jar) })
    return { signInPage, signedIn, consentHtml: html, final, location: final.headers.get("location") ?? "", jar, query }
  }

  /** A full flow up to tokens. */
  const connect = async (options: {
    readonly scopes?: ReadonlyArray<string>
    readonly approve?: ReadonlyArray<string>
    readonly merchant?: Awaited<ReturnType<typeof seedMerchant>>
  } = {}) => {
    const merchant = options.merchant ?? await seedMerchant()
    const client = await newClient()
    const { verifier, challenge } = pkce()
    const flow = await consent({ ...client, merchant, challenge, scopes: options.scopes, approve: options.approve })
    const code = new URL(flow.location).searchParams.get("code") ?? ""
    const tokens = await formJson("/oauth/token", {
      grant_type: "authorization_code",
      client_id: client.clientId,
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      resource: agentResource
    })
    if (tokens.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(tokens.body)}`)
    return { merchant, client, tokens: tokens.body as { access_token: string; refresh_token: string; scope: string } }
  }

  const mcpRequest = (token: string | undefined, method: string, params: Record<string, unknown>): RequestInit => ({
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  /** One JSON-RPC call to the agent endpoint. */
  const mcp = (token: string | undefined, method: string, params: Record<string, unknown> = {}) =>
    json(agentUrl, mcpRequest(token, method, params))
  /** The same call, through the twin instance's agent endpoint. */
  const twinMcp = async (token: string | undefined, method: string, params: Record<string, unknown> = {}) =>
    readJson(await fetchTwin(twinAgentUrl, mcpRequest(token, method, params)))
  /** A JSON request through the twin instance. */
  const twinJson = async (url: string, init: RequestInit = {}) => readJson(await fetchTwin(url, init))

  /** Waits until the database is migrated and both handlers are built (call it in beforeAll). */
  const ready = async () => {
    await app.handler(new Request(`${baseOrigin}/healthz`))
    if (agentApp !== undefined) await agentApp.handler(new Request(`${agentOrigin}/.well-known/oauth-protected-resource`))
  }

  const dispose = async () => {
    if (twinAgentApp !== undefined) await twinAgentApp.dispose()
    if (twinApp !== undefined) await twinApp.dispose()
    if (agentApp !== undefined) await agentApp.dispose()
    await app.dispose()
    await Effect.runPromise(Scope.close(dbScope, Exit.void))
  }
  return {
    settings, fetchApp, json, operator, form, formJson, register, seedMerchant, newClient, consent, connect, mcp,
    agentResource, agentUrl, ready, dispose, runSql, twinMcp, twinJson,
    handlers: { main: app.handler, agent: agentApp?.handler }
  }
}
