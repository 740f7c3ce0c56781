import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OAuthClients } from "../../src/services/oauth/clients.js"
import { Settings } from "../../src/services/settings.js"
import { SCOPES } from "../../src/domain/credentials/scopes.js"
import { cookiePolicy } from "../../src/http/browser/cookies.js"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { midMinuteClock } from "@signcraft/test-kit/clock"
import { cookiesOf, hiddenFields, pkce, startOAuthApp } from "@signcraft/test-kit/oauth"
import { SCOPE_DESCRIPTIONS } from "../../src/domain/credentials/scope-descriptions.js"

const BASE = "http://localhost:8080"

// At an origin's root, and under a base path: every URL the authorization server writes carries it.
const deployments = databaseVariants().flatMap((variant) => [
  { variant, name: variant.name, base: BASE },
  { variant, name: variant.name, base: `${BASE}/signs` }
])

describe.each(deployments)("authorization server: metadata, registration, authorization ($name database, $base)", (deployment) => {
  const { variant } = deployment
  const BASE = deployment.base
  const origin = new URL(BASE).origin
  const basePath = new URL(BASE).pathname.replace(/\/$/, "")
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config, { baseUrl: BASE })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  describe("metadata", () => {
    const expectedAs = {
      issuer: BASE,
      authorization_endpoint: `${BASE}/oauth/authorize`,
      token_endpoint: `${BASE}/oauth/token`,
      registration_endpoint: `${BASE}/oauth/register`,
      revocation_endpoint: `${BASE}/oauth/revoke`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      scopes_supported: [...SCOPES],
      authorization_response_iss_parameter_supported: false,
      client_id_metadata_document_supported: true,
      service_documentation: `${BASE}/docs`
    }

    it.each(["/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server/mcp"])(
      "serves RFC 8414 metadata with exactly the documented values at %s",
      async (path) => {
        const res = await app.json(path)
        expect(res.status).toBe(200)
        expect(res.headers.get("content-type")).toContain("application/json")
        expect(res.body).toEqual(expectedAs)
      }
    )

    it.each(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"])(
      "serves RFC 9728 metadata naming {base_url}/mcp, the authorization server and every scope at %s",
      async (path) => {
        const res = await app.json(path)
        expect(res.status).toBe(200)
        expect(res.body).toMatchObject({
          resource: `${BASE}/mcp`,
          authorization_servers: [BASE],
          scopes_supported: [...SCOPES],
          bearer_methods_supported: ["header"]
        })
      }
    )

    it("serves both documents where RFC 8414 §3.1 and RFC 9728 §3.1 put them for the base URL's path", async () => {
      const as = await app.json(`${origin}/.well-known/oauth-authorization-server${basePath}`)
      expect(as.status).toBe(200)
      expect(as.body).toEqual(expectedAs)
      const resource = await app.json(`${origin}/.well-known/oauth-protected-resource${basePath}/mcp`)
      expect(resource.status).toBe(200)
      expect(resource.body).toMatchObject({ resource: `${BASE}/mcp`, authorization_servers: [BASE] })
    })

    it("answers an unauthenticated agent request 401 with the resource_metadata challenge", async () => {
      const res = await app.mcp(undefined, "tools/list")
      expect(res.status).toBe(401)
      const challenge = res.headers.get("www-authenticate") ?? ""
      expect(challenge).toBe(`Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`)
      const pointed = await app.json(challenge.replace(/^.*resource_metadata="([^"]+)".*$/, "$1"))
      expect(pointed.body.resource).toBe(`${BASE}/mcp`)
    })
  })

  describe("dynamic registration", () => {
    it("registers a public client: no secret, the registered values echoed", async () => {
      const res = await app.register({
        client_name: "Claude",
        redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "http://localhost:6274/oauth/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "store:read pricing:read"
      })
      expect(res.status).toBe(201)
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.body).toEqual({
        client_id: expect.stringMatching(/^sc_client_[0-9A-Za-z]{24}$/),
        client_id_issued_at: expect.any(Number),
        client_name: "Claude",
        redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "http://localhost:6274/oauth/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "store:read pricing:read"
      })
      expect(res.body).not.toHaveProperty("client_secret")
    })

    it.each([
      ["an http redirect off loopback", { redirect_uris: ["http://agent.example.com/cb"] }, "invalid_redirect_uri"],
      ["a redirect with a fragment", { redirect_uris: ["https://agent.example.com/cb#x"] }, "invalid_redirect_uri"],
      ["a redirect with credentials", { redirect_uris: ["https://u:p@agent.example.com/cb"] }, "invalid_redirect_uri"],
      ["a wildcard redirect", { redirect_uris: ["https://*.example.com/cb"] }, "invalid_redirect_uri"],
      ["a custom scheme", { redirect_uris: ["com.example.agent:/cb"] }, "invalid_redirect_uri"],
      ["no redirect URIs", {}, "invalid_redirect_uri"],
      [
        "a confidential client",
        { redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "client_secret_post" },
        "invalid_client_metadata"
      ],
      [
        "the client_credentials grant",
        { redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] },
        "invalid_client_metadata"
      ],
      ["response type token", { redirect_uris: ["https://a.example/cb"], response_types: ["token"] }, "invalid_client_metadata"]
    ])("refuses %s with the RFC 7591 error %s", async (_name, metadata, error) => {
      const res = await app.register(metadata)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error, error_description: expect.any(String) })
    })

    it("refuses a body that is not JSON with invalid_client_metadata", async () => {
      const res = await app.json("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: "{" })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe("invalid_client_metadata")
    })
  })

  describe("pruning", () => {
    it("drops registrations that never obtained a token after a day, and clients unused for 90 days", async () => {
      const fresh = await app.newClient()
      const unused = await app.newClient()
      const idle = await app.newClient()
      const active = await app.newClient()
      const clients = OAuthClients.layer.pipe(Layer.provide(Layer.succeed(Settings, app.settings)))
      const remaining = await app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE oauth_clients SET created_at = now() - interval '25 hours' WHERE client_id = ${unused.clientId}`
        yield* sql`UPDATE oauth_clients SET created_at = now() - interval '200 days', obtained_token = true,
          last_used_at = now() - interval '91 days' WHERE client_id = ${idle.clientId}`
        yield* sql`UPDATE oauth_clients SET created_at = now() - interval '200 days', obtained_token = true,
          last_used_at = now() - interval '29 days' WHERE client_id = ${active.clientId}`
        yield* (yield* OAuthClients).prune
        const ids = [fresh.clientId, unused.clientId, idle.clientId, active.clientId]
        const rows = yield* sql<{ client_id: string }>`SELECT client_id FROM oauth_clients WHERE client_id IN ${sql.in(ids)}`
        return rows.map((row) => row.client_id).sort()
      }).pipe(Effect.provide(clients)))
      expect(remaining).toEqual([fresh.clientId, active.clientId].sort())
    })
  })

  describe("authorization request", () => {
    // An operator-registered (verified) client, or a self-registered one.
    const verify = (clientId: string) =>
      app.runSql(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE oauth_clients SET verified = true WHERE client_id = ${clientId}`))
    const start = async (overrides: Record<string, string | undefined> = {}, options: { readonly verified?: boolean } = {}) => {
      const client = await app.newClient("http://127.0.0.1:7777/callback")
      if (options.verified === true) await verify(client.clientId)
      const params = new URLSearchParams()
      const all: Record<string, string | undefined> = {
        response_type: "code",
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        scope: "store:read",
        state: "abc",
        ...overrides
      }
      for (const [name, value] of Object.entries(all)) if (value !== undefined) params.append(name, value)
      return app.fetchApp(`/oauth/authorize?${params}`)
    }

    it.each([
      ["the plain PKCE method", { code_challenge_method: "plain" }, "invalid_request"],
      ["a missing code_challenge_method", { code_challenge_method: undefined }, "invalid_request"],
      ["a missing code_challenge", { code_challenge: undefined }, "invalid_request"],
      ["an unknown client", { client_id: "sc_client_unknown" }, "invalid_client"],
      ["an unregistered redirect URI", { redirect_uri: "https://evil.example/callback" }, "invalid_request"],
      ["a redirect URI on another loopback port", { redirect_uri: "http://127.0.0.1:7778/callback" }, "invalid_request"]
    ])("refuses %s directly, with no redirect", async (_name, overrides, error) => {
      const res = await start(overrides)
      expect(res.status).toBe(400)
      expect(res.headers.get("location")).toBeNull()
      expect(await res.json()).toEqual({ error, error_description: expect.any(String) })
    })

    it.each([
      ["another resource", { resource: `${BASE}/api/v3` }, "invalid_target"],
      ["an unknown scope", { scope: "store:read admin" }, "invalid_scope"],
      ["another response type", { response_type: "token" }, "unsupported_response_type"]
    ])("redirects %s back to a verified client with %s, the state and no iss", async (_name, overrides, error) => {
      const res = await start(overrides, { verified: true })
      expect(res.status).toBe(303)
      const location = new URL(res.headers.get("location") ?? "")
      expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:7777/callback")
      expect(location.searchParams.get("error")).toBe(error)
      expect(location.searchParams.get("state")).toBe("abc")
      expect(location.searchParams.has("iss")).toBe(false)
      expect(location.searchParams.has("code")).toBe(false)
    })

    it.each([
      ["another resource", { resource: `${BASE}/api/v3` }, "invalid_target"],
      ["an unknown scope", { scope: "nope" }, "invalid_scope"],
      ["another response type", { response_type: "token" }, "unsupported_response_type"]
    ])("shows %s to the person instead of redirecting to a self-registered client (RFC 9700 §4.11.2)", async (_name, overrides, error) => {
      const res = await start(overrides)
      expect(res.status).toBe(400)
      expect(res.headers.get("location")).toBeNull()
      expect(res.headers.get("content-type")).toContain("text/html")
      const html = await res.text()
      expect(html).toContain("This connection cannot be made")
      expect(html).toContain(`<code>${error}</code>`)
      expect(html).toContain("127.0.0.1:7777")
    })

    it("redirects errors to a self-registered client the signed-in person approved before", async () => {
      const merchant = await app.seedMerchant(1)
      const client = await app.newClient()
      const approved = await app.consent({ ...client, merchant, scopes: ["store:read"], decision: "approve" })
      const cookie = Object.entries(approved.jar).map(([name, value]) => `${name}=${value}`).join("; ")
      const query = new URLSearchParams({
        response_type: "code",
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        scope: "nope",
        state: "xyz"
      })
      const res = await app.fetchApp(`/oauth/authorize?${query}`, { headers: { cookie } })
      expect(res.status).toBe(303)
      expect(new URL(res.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_scope")
    })

    it("accepts resource = the agent endpoint", async () => {
      const res = await start({ resource: `${BASE}/mcp` })
      expect(res.status).toBe(200)
    })

    it("shows the sign-in form with a CSRF cookie: HttpOnly, SameSite=Lax, not Secure on loopback http", async () => {
      const res = await start()
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toContain("text/html")
      expect(res.headers.get("x-frame-options")).toBe("DENY")
      const html = await res.text()
      expect(html).toContain(`<label for="email">Email</label>`)
      expect(html).toContain(`<label for="password">Password</label>`)
      expect(html).toContain(`<button type="submit">Sign in</button>`)
      expect(hiddenFields(html).csrf_token).toMatch(/^sc_csrf_/)
      expect(html).toContain(`<form method="post" action="${basePath}/oauth/authorize">`)
      const [cookie] = res.headers.getSetCookie()
      expect(cookie).toMatch(/^sc_csrf=sc_csrf_/)
      // Scoped to the base path: the host's other paths never see it.
      expect(cookie).toContain(`Path=${basePath === "" ? "/" : basePath};`)
      expect(cookie).toContain("HttpOnly")
      expect(cookie).toContain("SameSite=Lax")
      expect(cookie).not.toContain("Secure")
    })

    it("makes cookies Secure with the __Host- prefix outside loopback http", () => {
      expect(cookiePolicy("https://signcraft.example.com")).toEqual({
        secure: true,
        session: "__Host-sc_session",
        csrf: "__Host-sc_csrf",
        device: "__Host-sc_device",
        path: "/"
      })
      // Under a base path `__Host-` cannot be used (it demands path `/`): `__Secure-`, scoped to the path.
      expect(cookiePolicy("https://shop.example/signs")).toEqual({
        secure: true,
        session: "__Secure-sc_session",
        csrf: "__Secure-sc_csrf",
        device: "__Secure-sc_device",
        path: "/signs"
      })
      expect(cookiePolicy("http://signcraft.internal:8080").secure).toBe(true)
      expect(cookiePolicy("http://127.0.0.1:8080").secure).toBe(false)
      expect(cookiePolicy("http://localhost:8080").secure).toBe(false)
    })
  })

  describe("sign-in and consent", () => {
    it("refuses a sign-in post without the CSRF cookie", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient()
      const query = new URLSearchParams({
        response_type: "code",
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256"
      }).toString()
      const page = await app.fetchApp(`/oauth/authorize?${query}`)
      const fields = hiddenFields(await page.text())
      const res = await app.form("/oauth/authorize", { ...fields, email: merchant.email, password: merchant.password })
      expect(res.status).toBe(400)
      expect((await res.json()).error).toBe("invalid_request")
      expect(res.headers.getSetCookie()).toEqual([])
    })

    it("keeps the sign-in form on a wrong password, with no session", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant: { email: merchant.email, password: "wrong password!" } })
      expect(flow.signedIn.status).toBe(200)
      expect(await flow.signedIn.text()).toContain("The email or password is incorrect.")
      expect(cookiesOf(flow.signedIn)).not.toHaveProperty("sc_session")
    })

    it("shows the consent screen: service and client name, Unverified explained, who is signed in, one checkbox per scope in plain words, the redirect host, Approve and Deny", async () => {
      const merchant = await app.seedMerchant(1)
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant, scopes: ["store:read", "pricing:read"], decision: "deny" })
      expect(flow.signedIn.status).toBe(303)
      // Back to the authorization request, under the base path.
      expect(flow.signedIn.headers.get("location")).toBe(`${basePath}/oauth/authorize?${flow.query}`)
      const session = flow.signedIn.headers.getSetCookie().find((c) => c.startsWith("sc_session="))
      expect(session).toContain(`Path=${basePath === "" ? "/" : basePath};`)
      expect(session).toContain("HttpOnly")
      expect(session).toContain("SameSite=Lax")
      const html = flow.consentHtml
      expect(html).toContain(`<form method="post" action="${basePath}/oauth/authorize">`)
      expect(html).toContain("Test Agent")
      expect(html).toContain(`<span class="unverified">Unverified</span>`)
      expect(html).toContain("signcraft · connect an app")
      expect(html).toContain("Unverified: this app registered itself")
      expect(html).toContain(`Signed in as <strong>${merchant.email}</strong>`)
      for (const scope of ["store:read", "pricing:read"] as const) {
        expect(html).toContain(
          `<input type="checkbox" name="scope" value="${scope}" checked><span class="scope">${SCOPE_DESCRIPTIONS[scope].replace(/'/g, "&#39;")}<code>${scope}</code></span></label>`
        )
      }
      expect(html).toContain(`You will be sent back to ${new URL(client.redirectUri).host}.`)
      expect(html).not.toContain(`value="orders:write"`)
      expect(html).toContain(`value="approve">Approve</button>`)
      expect(html).toContain(`value="deny">Deny</button>`)
      // One Store: no choice to make.
      expect(html).not.toContain(`<label for="store_id">Store</label>`)
    })

    it("offers a Store choice when the person belongs to several Stores", async () => {
      const merchant = await app.seedMerchant(2)
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant, decision: "deny" })
      expect(flow.consentHtml).toContain(`<label for="store_id">Store</label>`)
      for (const id of merchant.storeIds) expect(flow.consentHtml).toContain(`<option value="${id}">`)
    })

    it("escapes the client name", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient("http://127.0.0.1:7777/callback", { client_name: "<script>x</script>" })
      const flow = await app.consent({ ...client, merchant, decision: "deny" })
      expect(flow.consentHtml).not.toContain("<script>")
      expect(flow.consentHtml).toContain("&lt;script&gt;x&lt;/script&gt;")
    })

    it("redirects a Deny with access_denied and the state, no code and no iss", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant, decision: "deny", state: "s-deny" })
      expect(flow.final.status).toBe(303)
      const location = new URL(flow.location)
      expect(location.searchParams.get("error")).toBe("access_denied")
      expect(location.searchParams.get("state")).toBe("s-deny")
      expect(location.searchParams.has("code")).toBe(false)
      expect(location.searchParams.has("iss")).toBe(false)
    })

    it("redirects an approval with a code and the state, and no iss", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant, state: "s-ok" })
      const location = new URL(flow.location)
      expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri)
      expect(location.searchParams.get("code")).toMatch(/^sc_code_/)
      expect(location.searchParams.get("state")).toBe("s-ok")
      expect([...location.searchParams.keys()].sort()).toEqual(["code", "state"])
    })

    it("refuses a consent post whose CSRF token is not the session's", async () => {
      const merchant = await app.seedMerchant()
      const client = await app.newClient()
      const flow = await app.consent({ ...client, merchant, decision: "deny" })
      const fields = hiddenFields(flow.consentHtml)
      const cookie = Object.entries(flow.jar).map(([n, v]) => `${n}=${v}`).join("; ")
      const res = await app.form("/oauth/authorize", { ...fields, csrf_token: "sc_csrf_forged", scope: "store:read", decision: "approve" }, { cookie })
      expect(res.status).toBe(400)
      expect(res.headers.get("location")).toBeNull()
    })

    it("binds the grant to the chosen Store and to the scopes left ticked", async () => {
      const merchant = await app.seedMerchant(2)
      const client = await app.newClient()
      const { verifier, challenge } = pkce()
      const chosen = merchant.storeIds[1]
      const flow = await app.consent({
        ...client,
        merchant,
        challenge,
        storeId: chosen,
        scopes: ["store:read", "pricing:read", "orders:write"],
        approve: ["store:read", "orders:write"]
      })
      const code = new URL(flow.location).searchParams.get("code") ?? ""
      const tokens = await app.formJson("/oauth/token", {
        grant_type: "authorization_code",
        client_id: client.clientId,
        code,
        code_verifier: verifier,
        redirect_uri: client.redirectUri
      })
      expect(tokens.status).toBe(200)
      expect(tokens.body.scope).toBe("store:read orders:write")
      const store = await app.mcp(tokens.body.access_token, "tools/call", { name: "get_store", arguments: {} })
      expect(store.body.result.structuredContent).toEqual({ id: chosen, platform: "shopify", scopes: ["store:read", "orders:write"] })
    })
  })
})

describe.each(databaseVariants())("registration quotas ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(
      db.config,
      { registrationLimitPerHour: 3, registrationLimitPerDay: 100, rateLimitPerKeyPerMinute: 2 },
      { clock: midMinuteClock() }
    )
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("counts every attempt, invalid ones included, against the hourly quota; the agent's 429 carries retry_after", async () => {
    const { tokens } = await app.connect()
    expect((await app.register({ redirect_uris: ["http://evil.example/cb"] })).status).toBe(400)
    expect((await app.json("/oauth/register", { method: "POST", body: "nope" })).status).toBe(400)
    const refused = await app.register({ redirect_uris: ["https://a.example/cb"] })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: "rate_limited", error_description: expect.any(String), retry_after: expect.any(Number) })
    expect(refused.body.retry_after).toBeGreaterThan(0)
    expect(refused.body.retry_after).toBeLessThanOrEqual(3600)
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after))

    // The agent endpoint's own per-grant quota (2 per minute here).
    expect((await app.mcp(tokens.access_token, "tools/list")).status).toBe(200)
    expect((await app.mcp(tokens.access_token, "tools/list")).status).toBe(200)
    const limited = await app.mcp(tokens.access_token, "tools/list")
    expect(limited.status).toBe(429)
    expect(limited.body.retry_after).toBeGreaterThan(0)
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.retry_after))
  })
})

describe.each(databaseVariants())("registration daily quota ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config, { registrationLimitPerHour: 100, registrationLimitPerDay: 2 })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("refuses past the daily quota even under the hourly one", async () => {
    expect((await app.register({})).status).toBe(400)
    expect((await app.register({ redirect_uris: ["https://a.example/cb"] })).status).toBe(201)
    const refused = await app.register({ redirect_uris: ["https://a.example/cb"] })
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe("rate_limited")
    expect(refused.body.retry_after).toBeGreaterThan(3600)
  })
})
