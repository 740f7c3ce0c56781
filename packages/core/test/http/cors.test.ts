import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, startApp, type TestDatabase } from "@signcraft/test-kit"

const SHOP = "https://shop.example"

const preflight = (method: string) => ({
  headers: { origin: SHOP, "access-control-request-method": method, "access-control-request-headers": "content-type" }
})

describe("CORS", () => {
  let db: TestDatabase
  let narrowedDb: TestDatabase
  let app: ReturnType<typeof startApp>
  let narrowed: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    narrowedDb = await embeddedVariant.create()
    app = startApp(db.config)
    narrowed = startApp(narrowedDb.config, { corsOrigins: [SHOP] })
  })
  afterAll(async () => {
    await app.dispose()
    await narrowed.dispose()
    await db.cleanup()
    await narrowedDb.cleanup()
  })

  it("answers preflights of the paths browsers may call, with the methods each path has", async () => {
    const cases = [
      ["/storefront/v1/customisers/1/form-submissions", "POST", "POST, OPTIONS"],
      ["/storefront/v1/customisers/1/designs", "POST", "POST, OPTIONS"],
      ["/.well-known/oauth-authorization-server", "GET", "GET, HEAD, OPTIONS"],
      ["/.well-known/oauth-protected-resource/mcp", "GET", "GET, HEAD, OPTIONS"],
      ["/oauth/register", "POST", "POST, OPTIONS"],
      ["/oauth/token", "POST", "POST, OPTIONS"],
      ["/oauth/revoke", "POST", "POST, OPTIONS"],
      ["/mcp", "POST", "GET, POST, DELETE, OPTIONS"]
    ] as const
    for (const [path, method, allowed] of cases) {
      const res = await app.call("OPTIONS", path, preflight(method))
      expect(res.status, path).toBe(204)
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*")
      expect(res.headers.get("access-control-allow-methods"), path).toBe(allowed)
      expect(res.headers.get("access-control-allow-credentials"), path).toBeNull()
    }
    const agent = await app.call("OPTIONS", "/mcp", preflight("POST"))
    expect(agent.headers.get("access-control-allow-headers")).toContain("mcp-session-id")
  })

  it("lets other origins read those answers, the agent's challenge headers included", async () => {
    const metadata = await app.call("GET", "/.well-known/oauth-authorization-server", { headers: { origin: SHOP } })
    expect(metadata.headers.get("access-control-allow-origin")).toBe("*")
    const challenge = await app.call("POST", "/mcp", { headers: { origin: SHOP }, body: { jsonrpc: "2.0", id: 1, method: "ping" } })
    expect(challenge.status).toBe(401)
    expect(challenge.headers.get("access-control-allow-origin")).toBe("*")
    expect(challenge.headers.get("access-control-expose-headers")).toContain("www-authenticate")
    expect(challenge.headers.get("access-control-expose-headers")).toContain("mcp-session-id")
    const token = await app.call("POST", "/oauth/token", { headers: { origin: SHOP, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=nope" })
    expect(token.headers.get("access-control-allow-origin")).toBe("*")
  })

  it("sends no CORS headers from /oauth/authorize, the operator API, v3 or v2", async () => {
    for (const path of ["/oauth/authorize?response_type=code", "/operator/v1/stores/1/connections", "/api/v3/stores/me", "/api/v2/customisers"]) {
      const res = await app.call("GET", path, { headers: { origin: SHOP } })
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull()
      const pre = await app.call("OPTIONS", path, preflight("GET"))
      expect(pre.headers.get("access-control-allow-origin"), path).toBeNull()
      expect(pre.status, path).not.toBe(204)
    }
  })

  it("narrows the storefront to CORS_ORIGINS, telling caches the answer varies by origin", async () => {
    const allowed = await narrowed.call("OPTIONS", "/storefront/v1/customisers/1/form-submissions", preflight("POST"))
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get("access-control-allow-origin")).toBe(SHOP)
    expect(allowed.headers.get("vary")).toContain("origin")
    const other = await narrowed.call("OPTIONS", "/storefront/v1/customisers/1/form-submissions", {
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" }
    })
    expect(other.headers.get("access-control-allow-origin")).toBeNull()
    expect(other.headers.get("vary")).toContain("origin")
    // The agent and the authorization server stay open to any origin.
    expect((await narrowed.call("OPTIONS", "/oauth/token", preflight("POST"))).headers.get("access-control-allow-origin")).toBe("*")
  })
})
