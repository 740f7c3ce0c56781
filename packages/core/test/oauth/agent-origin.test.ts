import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { pkce, startOAuthApp } from "@signcraft/test-kit/oauth"

const BASE = "http://localhost:8080"
const MCP = "http://127.0.0.1:9100"

describe.each(databaseVariants())("the agent endpoint on its own origin (MCP_URL) ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config, { mcpUrl: MCP })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("serves both metadata documents at the agent origin, the resource being that origin", async () => {
    const prm = await app.json(`${MCP}/.well-known/oauth-protected-resource`)
    expect(prm.status).toBe(200)
    expect(prm.body).toMatchObject({ resource: MCP, authorization_servers: [BASE] })
    const asAtAgent = await app.json(`${MCP}/.well-known/oauth-authorization-server`)
    const asAtBase = await app.json(`${BASE}/.well-known/oauth-authorization-server`)
    expect(asAtAgent.status).toBe(200)
    expect(asAtAgent.body).toEqual(asAtBase.body)
    expect(asAtAgent.body.issuer).toBe(BASE)
  })

  it("answers at the agent origin's root with the challenge pointing at that origin", async () => {
    const res = await app.json(`${MCP}/`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(res.status).toBe(401)
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${MCP}/.well-known/oauth-protected-resource"`)
  })

  it("no longer serves the agent endpoint or its metadata on the base URL", async () => {
    expect((await app.fetchApp(`${BASE}/mcp`, { method: "POST" })).status).toBe(404)
    expect((await app.fetchApp(`${BASE}/.well-known/oauth-protected-resource`)).status).toBe(404)
  })

  it("binds tokens to the agent origin: get_store works there, {base_url}/mcp is invalid_target", async () => {
    const { tokens, merchant } = await app.connect()
    const store = await app.mcp(tokens.access_token, "tools/call", { name: "get_store", arguments: {} })
    expect(store.status).toBe(200)
    expect(store.body.result.structuredContent.id).toBe(merchant.storeIds[0])

    const client = await app.newClient()
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      resource: `${BASE}/mcp`
    })
    // A self-registered client is not sent the error (RFC 9700 §4.11.2): the person is shown it.
    const res = await app.fetchApp(`/oauth/authorize?${query}`)
    expect(res.status).toBe(400)
    expect(res.headers.get("location")).toBeNull()
    expect(await res.text()).toContain("<code>invalid_target</code>")
  })
})
