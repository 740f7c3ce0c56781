import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, OPERATOR_TOKEN, startApp, type TestDatabase } from "@signcraft/test-kit"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

const ORIGIN = "http://127.0.0.1"
const BASE = `${ORIGIN}/signs`

interface Probe {
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly headers?: Record<string, string>
}

const get = (path: string): Probe => ({ method: "GET", path })
const post = (path: string, body = "{}", type = "application/json"): Probe => ({ method: "POST", path, body, headers: { "content-type": type } })
const preflight = (path: string): Probe => ({
  method: "OPTIONS",
  path,
  headers: { origin: "https://shop.example", "access-control-request-method": "POST" }
})

// What each part answers while it is on (a sample of its routes, pages and preflights), from
// inside the base path and, for the metadata, from where RFC 8414 and RFC 9728 put it.
const PARTS = {
  agent: [
    get("/signs/oauth/authorize?response_type=code"),
    post("/signs/oauth/register"),
    post("/signs/oauth/token", "grant_type=refresh_token", "application/x-www-form-urlencoded"),
    post("/signs/oauth/revoke", "token=x", "application/x-www-form-urlencoded"),
    get("/signs/oauth/token"),
    preflight("/signs/oauth/token"),
    post("/signs/mcp"),
    preflight("/signs/mcp"),
    get("/signs/.well-known/oauth-authorization-server"),
    get("/signs/.well-known/oauth-protected-resource/mcp"),
    get("/.well-known/oauth-authorization-server/signs"),
    get("/.well-known/oauth-protected-resource/signs/mcp")
  ],
  docs: [
    get("/signs/docs"),
    get("/signs/docs/problems"),
    get("/signs/docs/problems/not_found"),
    get("/signs/docs/migration"),
    get("/signs/docs/webhooks"),
    get("/signs/docs/operator"),
    post("/signs/docs")
  ],
  storefront: [
    post("/signs/storefront/v1/customisers/1/form-submissions"),
    post("/signs/storefront/v1/customisers/1/designs"),
    get("/signs/storefront/v1/customisers/1/designs"),
    preflight("/signs/storefront/v1/customisers/1/designs")
  ],
  legacy: [
    get("/signs/api/v2/customisers"),
    get("/signs/api/v2/webhooks"),
    post("/signs/api/orders"),
    post("/signs/api/customisers/1/products")
  ]
} as const

type Part = keyof typeof PARTS
const PART_NAMES = Object.keys(PARTS) as ReadonlyArray<Part>

// Everything an answer tells a client, but what differs per request by design.
const answerOf = async (response: Response) => {
  const headers = [...response.headers.entries()].filter(([name]) => !["x-request-id", "date", "content-length"].includes(name))
  const text = await response.text()
  const body = text.startsWith("{") ? { ...JSON.parse(text), request_id: undefined, instance: undefined } : text
  return { status: response.status, headers: Object.fromEntries(headers), body }
}

describe.each([...PART_NAMES, "dashboard"] as const)("SIGNCRAFT_DISABLE=%s", (disabled) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let key = ""
  const send = (probe: Probe) =>
    app.handler(new Request(`${ORIGIN}${probe.path}`, {
      method: probe.method,
      headers: { authorization: `Bearer ${key}`, ...probe.headers },
      ...(probe.body === undefined ? {} : { body: probe.body })
    }))

  beforeAll(async () => {
    db = await embeddedVariant.create()
    app = startApp(db.config, { baseUrl: BASE, disable: [disabled] })
    await app.call("GET", "/signs/healthz")
    key = (await app.seedStore("wildcard")).key
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("answers every path of the part exactly as an unknown path (no 405, no CORS), and leaves the other parts on", async () => {
    const unknown = await answerOf(await send(get("/signs/no-such-thing")))
    expect(unknown.status).toBe(404)
    for (const part of PART_NAMES) {
      for (const probe of PARTS[part]) {
        const answer = await answerOf(await send(probe))
        const label = `${probe.method} ${probe.path}`
        if (part === disabled) expect({ label, ...answer }).toEqual({ label, ...unknown })
        else expect({ label, status: answer.status }).not.toEqual({ label, status: 404 })
      }
    }
  })

  it("leaves the part out of the OpenAPI documents, and keeps /api/v3/openapi.json", async () => {
    const document = await app.call("GET", "/signs/api/v3/openapi.json")
    expect(document.status).toBe(200)
    const paths = Object.keys(document.body.paths)
    expect(paths).toContain("/api/v3/stores/me")
    expect(paths.some((path) => path.startsWith("/storefront/"))).toBe(disabled !== "storefront")
    const tags = (document.body.tags as ReadonlyArray<{ name: string }>).map((tag) => tag.name)
    const used = new Set(Object.values(document.body.paths as Record<string, Record<string, { tags?: ReadonlyArray<string> }>>)
      .flatMap((operations) => Object.values(operations).flatMap((operation) => operation.tags ?? [])))
    expect(tags.filter((tag) => !used.has(tag))).toEqual([])
    if (disabled !== "docs") {
      const reference = await (await send(get("/signs/docs"))).text()
      expect(reference.includes("/storefront/v1/")).toBe(disabled !== "storefront")
      const operator = await app.call("GET", "/signs/docs/operator/openapi.json", { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })
      expect(operator.body.servers).toEqual([{ url: BASE }])
    }
  })
})

describe("SIGNCRAFT_DISABLE=agent with the agent endpoint on an origin of its own (MCP_URL)", () => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>
  const agentOrigin = "http://127.0.0.1:9"

  beforeAll(async () => {
    db = await embeddedVariant.create()
    app = startOAuthApp(db.config, { mcpUrl: agentOrigin, disable: ["agent"] })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("answers the agent origin's endpoint and metadata 404, as an unknown path there", async () => {
    const unknown = await answerOf(await app.fetchApp(`${agentOrigin}/no-such-thing`))
    expect(unknown.status).toBe(404)
    for (const probe of [post("/"), get("/"), get("/.well-known/oauth-protected-resource"), get("/.well-known/oauth-authorization-server")]) {
      const answer = await answerOf(await app.fetchApp(`${agentOrigin}${probe.path}`, { method: probe.method, headers: probe.headers, body: probe.body }))
      expect({ probe: `${probe.method} ${probe.path}`, ...answer }).toEqual({ probe: `${probe.method} ${probe.path}`, ...unknown })
    }
  })
})
