import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeRouteUrlOf } from "../../src/http/base-path.js"
import { type FastAnswer, type FastReads, makeFastReads } from "../../src/http/fast-reads.js"
import { embeddedVariant, OPERATOR_TOKEN, startApp, type TestDatabase } from "@signcraft/test-kit"

const ORIGIN = "http://127.0.0.1"
const BASE = `${ORIGIN}/signs`

// The URLs an HTML page points at on this origin: every href, src and form action.
const pageUrls = (html: string): ReadonlyArray<string> =>
  [...html.matchAll(/\b(?:href|src|action)="([^"]*)"/g)].flatMap(([, url]) => (url === undefined ? [] : [url]))

// A URL a page or document writes stays under the base path: an absolute path, or a URL of this origin.
const leavesBasePath = (url: string): boolean =>
  (url.startsWith("/") && !url.startsWith("/signs/") && url !== "/signs") ||
  (url.startsWith(ORIGIN) && !url.startsWith(`${BASE}/`) && url !== BASE)

// BASE_URL with a path: everything is served under it and nothing outside it, and every URL the
// service writes carries it.
describe("a base URL with a path", () => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  const lines: Array<Readonly<Record<string, string | number>>> = []
  let fast: FastReads

  beforeAll(async () => {
    db = await embeddedVariant.create()
    // A trailing slash is the same base URL.
    app = startApp(db.config, { baseUrl: `${BASE}/`, rateLimitPerKeyPerMinute: 1_000 })
    await app.call("GET", "/signs/healthz")
    fast = await app.run(makeFastReads((line) => lines.push(line), "/mcp", makeRouteUrlOf(BASE)))
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("serves every route under the path", async () => {
    expect((await app.call("GET", "/signs/healthz")).body).toEqual({ status: "ok" })
    const s = await app.seedStore({ scopes: ["store:read"] })
    const me = await app.call("GET", "/signs/api/v3/stores/me?x=1", { key: s.key })
    expect(me.status).toBe(200)
    expect(me.body.links).toEqual({ self: `${BASE}/api/v3/stores/me?x=1`, documentation: expect.stringMatching(/^http:\/\/127\.0\.0\.1\/signs\//) })
  })

  it("answers 404 outside the path, exactly as an unknown path under it, whatever the path would be inside", async () => {
    const s = await app.seedStore({ scopes: ["store:read"] })
    const unknown = await app.call("GET", "/signs/no-such-thing")
    expect(unknown.status).toBe(404)
    const shape = (res: typeof unknown) => ({
      status: res.status,
      type: res.headers.get("content-type"),
      cors: res.headers.get("access-control-allow-origin"),
      body: { ...res.body, request_id: undefined, instance: undefined }
    })
    for (const outside of ["/healthz", "/api/v3/stores/me", "/signsx/healthz", "/storefront/v1/customisers/1/designs", "/.well-known/oauth-protected-resource/mcp"]) {
      const res = await app.call("GET", outside, { key: s.key, headers: { origin: "https://shop.example" } })
      expect({ outside, ...shape(res) }).toEqual({ outside, ...shape(unknown) })
    }
    // Not a 405 either, where the path inside has other methods.
    expect((await app.call("DELETE", "/healthz")).status).toBe(404)
    expect((await app.call("GET", "/signs")).status).toBe(404)
  })

  it("writes the path into problem types, the OpenAPI servers and the documentation links", async () => {
    const problem = await app.call("GET", "/signs/api/v3/nothing")
    expect(problem.body.type).toBe(`${BASE}/docs/problems/not_found`)
    const openapi = await app.call("GET", "/signs/api/v3/openapi.json")
    expect(openapi.body.servers).toEqual([{ url: BASE }])
    const pages = ["/docs", "/docs/problems", "/docs/problems/not_found", "/docs/migration", "/docs/webhooks", "/docs/operator"]
    for (const page of pages) {
      // The operator's reference answers only the operator token.
      const headers = page === "/docs/operator" ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : undefined
      const response = await app.handler(new Request(`${ORIGIN}/signs${page}`, { headers }))
      expect(response.status, page).toBe(200)
      const html = await response.text()
      expect(pageUrls(html).filter(leavesBasePath), page).toEqual([])
      expect([...html.matchAll(/http:\/\/127\.0\.0\.1[^"'\s<\\]*/g)].map(([url]) => url).filter(leavesBasePath), page).toEqual([])
    }
    // The reference renders the document with its servers, so its requests go under the path too.
    expect(await (await app.handler(new Request(`${BASE}/docs`))).text()).toContain(`"servers":[{"url":"${BASE}"}]`)
  })

  it("answers the metadata documents under the path and where RFC 8414 and RFC 9728 put them for it", async () => {
    const issuer = {
      issuer: BASE,
      authorization_endpoint: `${BASE}/oauth/authorize`,
      token_endpoint: `${BASE}/oauth/token`,
      registration_endpoint: `${BASE}/oauth/register`,
      revocation_endpoint: `${BASE}/oauth/revoke`
    }
    for (const path of ["/.well-known/oauth-authorization-server/signs", "/signs/.well-known/oauth-authorization-server"]) {
      expect((await app.call("GET", path)).body, path).toMatchObject(issuer)
    }
    for (const path of ["/.well-known/oauth-protected-resource/signs/mcp", "/signs/.well-known/oauth-protected-resource/mcp"]) {
      expect((await app.call("GET", path)).body, path).toMatchObject({ resource: `${BASE}/mcp`, authorization_servers: [BASE] })
    }
    const challenge = await app.call("POST", "/signs/mcp", { body: {} })
    expect(challenge.status).toBe(401)
    expect(challenge.headers.get("www-authenticate")).toContain(`resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`)
  })

  it("answers the fast reads under the path only, as the full path does", async () => {
    const s = await app.seedStore({ scopes: ["store:read"] })
    const get = (path: string) => fast("GET", path, { authorization: `Bearer ${s.key}` }, "unknown")
    let answer: FastAnswer | undefined
    for (let attempt = 0; attempt < 5 && answer === undefined; attempt += 1) {
      await app.call("GET", "/signs/api/v3/stores/me", { key: s.key })
      answer = get("/signs/api/v3/stores/me")
    }
    expect(answer?.status).toBe(200)
    expect(JSON.parse(String(answer?.body)).links.self).toBe(`${BASE}/api/v3/stores/me`)
    // Outside the path the full path answers (404): the fast reads leave it alone.
    expect(get("/api/v3/stores/me")).toBeUndefined()
  })
})
