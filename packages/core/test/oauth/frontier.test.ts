import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { createServer, type Server } from "node:http"
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toNodeListener } from "@signcraft/adapters"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { close, consentByForms, listen, type Merchant, startReceiver } from "@signcraft/test-kit/agent-clients"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

const insecure = { [oauth.allowInsecureRequests]: true }

/** What the metadata-document server answers: a status, headers and a body (JSON unless a string). */
interface DocumentAnswer {
  readonly status?: number
  readonly headers?: Record<string, string>
  readonly body: unknown
}

/**
 * A loopback server publishing client metadata documents: `answer(url)` decides each one, and
 * every fetch is counted per path.
 */
const startDocumentServer = async () => {
  const fetches = new Map<string, number>()
  const answers = new Map<string, (url: string) => DocumentAnswer>()
  const server = createServer((req, res) => {
    const path = req.url ?? "/"
    fetches.set(path, (fetches.get(path) ?? 0) + 1)
    const answer = answers.get(path)?.(`${origin}${path}`) ?? { status: 404, body: { error: "not found" } }
    res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers })
    res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body))
  })
  const origin = `http://127.0.0.1:${await listen(server)}`
  let seq = 0
  /** Publishes a document at a new path; answers its URL, the client_id. */
  const publish = (answer: (url: string) => DocumentAnswer) => {
    seq += 1
    const path = `/clients/agent-${seq}.json`
    answers.set(path, answer)
    return `${origin}${path}`
  }
  return {
    origin,
    publish,
    fetchesOf: (url: string) => fetches.get(new URL(url).pathname) ?? 0,
    close: () => close(server)
  }
}

/** The document of a public client at `url` redirecting to `redirectUri`. */
const documentFor = (url: string, redirectUri: string, extra: Record<string, unknown> = {}) => ({
  client_id: url,
  client_name: "Docs Agent",
  redirect_uris: [redirectUri],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...extra
})

/** The official MCP SDK client, holding `tokens` for a client it never registered (`clientId` only). */
const mcpClientWith = async (agentUrl: string, clientId: string, tokens: OAuthTokens) => {
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return "http://127.0.0.1:1/never"
    },
    get clientMetadata() {
      return { client_name: "unused", redirect_uris: ["http://127.0.0.1:1/never"] }
    },
    clientInformation: () => ({ client_id: clientId }),
    tokens: () => tokens,
    saveTokens: () => {},
    redirectToAuthorization: () => {
      throw new Error("the client should not need to authorize again")
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => ""
  }
  const client = new Client({ name: "frontier-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(agentUrl), { authProvider: provider }))
  return client
}

describe.each(databaseVariants())("the connector frontier against real listeners: client metadata documents, incremental consent, iss ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>
  let issApp: ReturnType<typeof startOAuthApp>
  let documents: Awaited<ReturnType<typeof startDocumentServer>>
  const servers: Array<Server> = []
  const seen: Array<string> = []
  let baseUrl = ""
  let issBaseUrl = ""

  beforeAll(async () => {
    db = await variant.create()
    documents = await startDocumentServer()
    const main = createServer()
    const withIss = createServer()
    servers.push(main, withIss)
    baseUrl = `http://127.0.0.1:${await listen(main)}`
    issBaseUrl = `http://127.0.0.1:${await listen(withIss)}`
    app = startOAuthApp(db.config, { baseUrl })
    await app.ready()
    // Every request the main listener gets, to show no registration call was made.
    const listener = toNodeListener(app.handlers.main)
    main.on("request", (req, res) => {
      seen.push(`${req.method} ${(req.url ?? "").split("?")[0]}`)
      listener(req, res)
    })
    issApp = startOAuthApp(db.config, { baseUrl: issBaseUrl, oauthIssParameter: true })
    await issApp.ready()
    withIss.on("request", toNodeListener(issApp.handlers.main))
  })
  afterAll(async () => {
    for (const server of servers) await close(server)
    await documents.close()
    await issApp.dispose()
    await app.dispose()
    await db.cleanup()
  })

  /** Authorization-server metadata as oauth4webapi reads it. */
  const discover = async (issuer: string) =>
    oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { algorithm: "oauth2", ...insecure }))

  /** An authorization URL with PKCE, resource and state; answers the URL, verifier and state. */
  const authorizationUrl = async (as: oauth.AuthorizationServer, clientId: string, redirectUri: string, scope: string, resource: string) => {
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint ?? "")
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      scope,
      state,
      resource
    }).toString()
    return { url: url.toString(), verifier, state }
  }

  /** Authorizes `client` for `scope` with consent by form posts, and exchanges the code; answers the tokens. */
  const authorize = async (
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    redirectUri: string,
    merchant: Merchant,
    scope: string,
    resource: string
  ) => {
    const request = await authorizationUrl(as, client.client_id, redirectUri, scope, resource)
    const callback = await consentByForms(request.url, merchant)
    const params = oauth.validateAuthResponse(as, client, new URL(callback), request.state)
    return oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, request.verifier, {
        additionalParameters: { resource },
        ...insecure
      })
    )
  }

  it("a client that only knows its metadata document connects, uses tools, refreshes and is revoked, with no registration call", async () => {
    const merchant = await app.seedMerchant(1, "shopify")
    const receiver = await startReceiver()
    try {
      const clientId = documents.publish((url) => ({
        headers: { "cache-control": "max-age=300" },
        body: documentFor(url, receiver.redirectUri)
      }))
      const as = await discover(baseUrl)
      expect(as.client_id_metadata_document_supported).toBe(true)
      const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" }
      const tokens = await authorize(as, client, receiver.redirectUri, merchant, "store:read pricing:read", app.agentUrl)
      expect(tokens.scope).toBe("store:read pricing:read")
      // Sign-in and consent read the request four times; the document's max-age kept one fetch.
      expect(documents.fetchesOf(clientId)).toBe(1)

      const sdk = await mcpClientWith(app.agentUrl, clientId, {
        access_token: tokens.access_token,
        token_type: "Bearer",
        ...(tokens.refresh_token === undefined ? {} : { refresh_token: tokens.refresh_token })
      })
      expect((await sdk.listTools()).tools.map((tool) => tool.name)).toContain("get_store")
      const store = await sdk.callTool({ name: "get_store", arguments: {} })
      expect(store.structuredContent).toEqual({ id: merchant.storeIds[0], platform: "shopify", scopes: ["store:read", "pricing:read"] })
      await sdk.close()

      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token ?? "", insecure)
      )
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
      const call = (token: string) => app.mcp(token, "tools/call", { name: "get_store", arguments: {} })
      expect((await call(refreshed.access_token)).status).toBe(200)
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, insecure))
      expect((await call(refreshed.access_token)).status).toBe(401)
      expect(seen.filter((line) => line.startsWith("POST /oauth/register"))).toEqual([])
    } finally {
      await receiver.close()
    }
  })

  it("names the document's host on the consent screen, without the Unverified wording of self-registered clients", async () => {
    const merchant = await app.seedMerchant()
    const redirectUri = "http://127.0.0.1:7777/callback"
    const clientId = documents.publish((url) => ({ body: documentFor(url, redirectUri, { client_name: "Docs Agent" }) }))
    const flow = await app.consent({ clientId, redirectUri, merchant })
    expect(flow.consentHtml).toContain("<h1>Docs Agent</h1>")
    expect(flow.consentHtml).toContain(`described by <strong>${new URL(documents.origin).host}</strong>`)
    expect(flow.consentHtml).not.toContain("Unverified")
    expect(new URL(flow.location).searchParams.get("code")).not.toBeNull()
  })

  it("refuses an unusable document on the page itself with invalid_client, never redirecting", async () => {
    const redirectUri = "http://127.0.0.1:7777/callback"
    const cases: ReadonlyArray<{ readonly name: string; readonly answer: (url: string) => DocumentAnswer; readonly says: string }> = [
      { name: "not found", answer: () => ({ status: 404, body: {} }), says: "answered HTTP 404" },
      { name: "another client_id", answer: () => ({ body: documentFor("https://other.example/agent.json", redirectUri) }), says: "client_id is not the URL" },
      {
        name: "no client_name",
        answer: (url) => ({ body: { ...documentFor(url, redirectUri), client_name: undefined } }),
        says: "no client_name"
      },
      {
        name: "a redirect URI that may not be registered",
        answer: (url) => ({ body: documentFor(url, "http://evil.example/cb") }),
        says: "only on a loopback host"
      },
      { name: "not JSON", answer: () => ({ body: "<html></html>" }), says: "is not JSON" },
      {
        name: "over 64 KB",
        answer: (url) => ({ body: documentFor(url, redirectUri, { padding: "x".repeat(64 * 1024) }) }),
        says: "over 64 KB"
      },
      { name: "a redirect to elsewhere", answer: () => ({ status: 302, headers: { location: "https://other.example/" }, body: "" }), says: "answered HTTP 302" }
    ]
    for (const { name, answer, says } of cases) {
      const clientId = documents.publish(answer)
      const query = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
        state: "s"
      })
      const res = await app.fetchApp(`/oauth/authorize?${query}`)
      expect(res.status, name).toBe(400)
      expect(res.headers.get("location"), name).toBeNull()
      const html = await res.text()
      expect(html, name).toContain("<code>invalid_client</code>")
      expect(html, name).toContain(says)
      expect(html, name).not.toContain("Unknown client")
    }
    // Nobody listens there: the fetch fails, and says so.
    const unreachable = new URLSearchParams({ response_type: "code", client_id: "http://127.0.0.1:1/agent.json", redirect_uri: redirectUri })
    const res = await app.fetchApp(`/oauth/authorize?${unreachable}`)
    expect(res.status).toBe(400)
    expect(await res.text()).toContain("could not be fetched")
  })

  it("fetches a document again on every request when its headers forbid keeping it", async () => {
    const merchant = await app.seedMerchant()
    const redirectUri = "http://127.0.0.1:7777/callback"
    const clientId = documents.publish((url) => ({ headers: { "cache-control": "no-store" }, body: documentFor(url, redirectUri) }))
    await app.consent({ clientId, redirectUri, merchant })
    // The sign-in page, its post, the consent page and its post each read the request.
    expect(documents.fetchesOf(clientId)).toBe(4)
  })

  it("revoking one Store's connection of a document client leaves the other Stores' connections of that client alone", async () => {
    const redirectUri = "http://127.0.0.1:7777/callback"
    const clientId = documents.publish((url) => ({ headers: { "cache-control": "max-age=600" }, body: documentFor(url, redirectUri) }))
    const tokensFor = async (merchant: Awaited<ReturnType<typeof app.seedMerchant>>) => {
      const verifier = "v".repeat(43)
      const challenge = await oauth.calculatePKCECodeChallenge(verifier)
      const flow = await app.consent({ clientId, redirectUri, merchant, challenge })
      const tokens = await app.formJson("/oauth/token", {
        grant_type: "authorization_code",
        client_id: clientId,
        code: new URL(flow.location).searchParams.get("code") ?? "",
        code_verifier: verifier,
        redirect_uri: redirectUri
      })
      expect(tokens.status).toBe(200)
      return tokens.body.access_token as string
    }
    const first = await app.seedMerchant()
    const second = await app.seedMerchant()
    const firstToken = await tokensFor(first)
    const secondToken = await tokensFor(second)
    const connections = await app.operator("GET", `/stores/${first.storeIds[0]}/connections`)
    expect(connections.body.data).toHaveLength(1)
    expect((await app.operator("DELETE", `/connections/${connections.body.data[0].id}`)).status).toBe(204)
    expect((await app.mcp(firstToken, "tools/call", { name: "get_store", arguments: {} })).status).toBe(401)
    expect((await app.mcp(secondToken, "tools/call", { name: "get_store", arguments: {} })).status).toBe(200)
  })

  it("steps up from pricing:read to pricing:write: the tool result names the scope, the client authorizes again, one connection holds the union", async () => {
    const merchant = await app.seedMerchant()
    const storeId = merchant.storeIds[0] ?? 0
    const customiser = await app.operator("POST", `/stores/${storeId}/customisers`, {
      name: "Neon",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    const receiver = await startReceiver()
    try {
      const as = await discover(baseUrl)
      const client = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(as, {
          client_name: "step-up agent",
          redirect_uris: [receiver.redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        }, insecure)
      )
      const reader = await authorize(as, client, receiver.redirectUri, merchant, "pricing:read", app.agentUrl)
      const sdk = await mcpClientWith(app.agentUrl, client.client_id, { access_token: reader.access_token, token_type: "Bearer" })
      const denied = await sdk.callTool({ name: "patch_pricing", arguments: { customiser_id: customiser.body.id, patch: {} } })
      expect(denied.isError).toBe(true)
      expect(denied.structuredContent).toMatchObject({
        error: "insufficient_scope",
        required_scopes: ["pricing:write"],
        granted_scopes: ["pricing:read"]
      })
      await sdk.close()

      // The client asks for what the tool named; the grant it gets holds both.
      const writer = await authorize(as, client, receiver.redirectUri, merchant, "pricing:write", app.agentUrl)
      expect(writer.scope).toBe("pricing:read pricing:write")
      const upgraded = await mcpClientWith(app.agentUrl, client.client_id, { access_token: writer.access_token, token_type: "Bearer" })
      const patched = await upgraded.callTool({ name: "patch_pricing", arguments: { customiser_id: customiser.body.id, patch: {} } })
      expect(patched.isError).toBeFalsy()
      expect((await upgraded.callTool({ name: "get_pricing", arguments: { customiser_id: customiser.body.id } })).isError).toBeFalsy()
      await upgraded.close()

      const connections = await app.operator("GET", `/stores/${storeId}/connections`)
      expect(connections.body.data).toHaveLength(1)
      expect(connections.body.data[0]).toMatchObject({ client_id: client.client_id, scopes: ["pricing:read", "pricing:write"] })
      // The earlier grant's tokens are revoked: its refresh token cannot bring it back.
      expect((await app.mcp(reader.access_token, "tools/list")).status).toBe(401)
      const stale = await app.formJson("/oauth/token", {
        grant_type: "refresh_token",
        client_id: client.client_id,
        refresh_token: reader.refresh_token ?? ""
      })
      expect(stale.body.error).toBe("invalid_grant")
    } finally {
      await receiver.close()
    }
  })

  it("marks on the consent screen which permissions a connected client asks for anew", async () => {
    const merchant = await app.seedMerchant()
    const client = await app.newClient()
    const first = await app.consent({ ...client, merchant, scopes: ["pricing:read"] })
    expect(first.consentHtml).not.toContain(`<span class="new">New</span>`)
    const verifier = "w".repeat(43)
    const flow = await app.consent({ ...client, merchant, scopes: ["pricing:read"], challenge: await oauth.calculatePKCECodeChallenge(verifier) })
    const code = new URL(flow.location).searchParams.get("code") ?? ""
    expect((await app.formJson("/oauth/token", { grant_type: "authorization_code", client_id: client.clientId, code, code_verifier: verifier, redirect_uri: client.redirectUri })).status).toBe(200)
    const again = await app.consent({ ...client, merchant, scopes: ["pricing:read", "pricing:write"], decision: "deny" })
    const boxOf = (scope: string) => again.consentHtml.slice(again.consentHtml.indexOf(`value="${scope}"`)).split("</label>")[0] ?? ""
    expect(boxOf("pricing:write")).toContain(`<span class="new">New</span>`)
    expect(boxOf("pricing:read")).toContain("Already granted")
    expect(boxOf("pricing:read")).not.toContain(`class="new"`)
  })

  describe("with OAUTH_ISS_PARAMETER=true", () => {
    it("oauth4webapi validates iss on the success redirect and on the error redirects", async () => {
      const merchant = await issApp.seedMerchant()
      const receiver = await startReceiver()
      try {
        const as = await discover(issBaseUrl)
        expect(as.authorization_response_iss_parameter_supported).toBe(true)
        const client = await oauth.processDynamicClientRegistrationResponse(
          await oauth.dynamicClientRegistrationRequest(as, {
            client_name: "iss agent",
            redirect_uris: [receiver.redirectUri],
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            token_endpoint_auth_method: "none"
          }, insecure)
        )
        const agentUrl = `${issBaseUrl}/mcp`
        // Success: oauth4webapi requires iss (the metadata says it is sent) and checks it is the issuer.
        const tokens = await authorize(as, client, receiver.redirectUri, merchant, "store:read", agentUrl)
        expect(tokens.access_token).toBeDefined()

        // The person denies: an error redirect, with iss.
        const denied = await authorizationUrl(as, client.client_id, receiver.redirectUri, "store:read", agentUrl)
        const flow = await issApp.consent({
          clientId: client.client_id,
          redirectUri: receiver.redirectUri,
          merchant,
          decision: "deny",
          challenge: new URL(denied.url).searchParams.get("code_challenge") ?? "",
          resource: agentUrl,
          state: denied.state
        })
        expect(new URL(flow.location).searchParams.get("iss")).toBe(issBaseUrl)
        const refusal = (() => {
          try {
            oauth.validateAuthResponse(as, client, new URL(flow.location), denied.state)
            return undefined
          } catch (error) {
            return error
          }
        })()
        expect(refusal).toBeInstanceOf(oauth.AuthorizationResponseError)
        expect((refusal as oauth.AuthorizationResponseError).error).toBe("access_denied")

        // A fault found before consent, sent back to a client the person approved before: iss too.
        const badScope = await authorizationUrl(as, client.client_id, receiver.redirectUri, "store:read", agentUrl)
        const url = new URL(badScope.url)
        url.searchParams.set("scope", "store:write")
        const withSession = await issApp.fetchApp(url.toString(), { headers: { cookie: Object.entries(flow.jar).map(([k, v]) => `${k}=${v}`).join("; ") } })
        expect(withSession.status).toBe(303)
        const location = new URL(withSession.headers.get("location") ?? "")
        expect(location.searchParams.get("error")).toBe("invalid_scope")
        expect(() => oauth.validateAuthResponse(as, client, location, badScope.state)).toThrow(oauth.AuthorizationResponseError)

        // An iss naming another issuer is refused by the client: the mix-up defence works.
        location.searchParams.set("iss", "http://127.0.0.1:1")
        expect(() => oauth.validateAuthResponse(as, client, location, badScope.state)).toThrow(/iss/)
      } finally {
        await receiver.close()
      }
    })

    it("sends no iss by default, as the connector profile fixes", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant })
      expect(new URL(flow.location).searchParams.has("iss")).toBe(false)
      expect((await discover(baseUrl)).authorization_response_iss_parameter_supported).toBe(false)
    })
  })
})
