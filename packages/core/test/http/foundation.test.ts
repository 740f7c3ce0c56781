import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, OPERATOR_TOKEN, startApp, type TestDatabase } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"

const PROBLEM_FIELDS = ["type", "title", "status", "code", "detail", "request_id"]

const expectProblem = (res: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, code: string) => {
  expect(res.status).toBe(status)
  expect(res.headers.get("content-type")).toContain("application/problem+json")
  for (const field of PROBLEM_FIELDS) expect(res.body).toHaveProperty(field)
  expect(res.body.status).toBe(status)
  expect(res.body.code).toBe(code)
  expect(res.body.request_id).toMatch(/^req_[0-9A-Za-z]+$/)
  expect(res.headers.get("x-request-id")).toBe(res.body.request_id)
}

describe.each(databaseVariants())("foundation over HTTP ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  const clock = adjustableClock()

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 1000, rateLimitPerIpPerMinute: 100_000 }, {}, { clock })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("answers /healthz once migrated", async () => {
    const res = await app.call("GET", "/healthz")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: "ok" })
  })

  it("serves GET /api/v3/stores/me in the success envelope", async () => {
    const seed = await app.seedStore({ scopes: ["store:read", "pricing:read"] }, { platform: "shopify" })
    const res = await app.call("GET", "/api/v3/stores/me?x=1", { key: seed.key })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ object: "store", id: seed.storeId, platform: "shopify" })
    expect(res.body.data.scopes).toEqual(["store:read", "pricing:read"])
    expect(res.body.meta.api_version).toBe("v3")
    expect(res.body.meta.request_id).toMatch(/^req_/)
    expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id)
    expect(res.body.links.self).toBe("http://localhost:8080/api/v3/stores/me?x=1")
    expect(res.body.links.documentation).toBe("http://localhost:8080/docs")
  })

  it("confines a key to its own Store", async () => {
    const a = await app.seedStore()
    const b = await app.seedStore()
    expect((await app.call("GET", "/api/v3/stores/me", { key: a.key })).body.data.id).toBe(a.storeId)
    expect((await app.call("GET", "/api/v3/stores/me", { key: b.key })).body.data.id).toBe(b.storeId)
  })

  it("answers 401 missing_api_key without a credential", async () => {
    expectProblem(await app.call("GET", "/api/v3/stores/me"), 401, "missing_api_key")
    expectProblem(await app.call("GET", "/api/v3/stores/me", { headers: { authorization: "Basic abc" } }), 401, "missing_api_key")
  })

  it("answers 401 for unknown, malformed and revoked keys", async () => {
    const unknown = `sk_test_${"A".repeat(40)}`
    expectProblem(await app.call("GET", "/api/v3/stores/me", { key: unknown }), 401, "invalid_api_key")
    expectProblem(await app.call("GET", "/api/v3/stores/me", { key: "not-a-key" }), 401, "invalid_api_key")
    const seed = await app.seedStore()
    expect((await app.call("GET", "/api/v3/stores/me", { key: seed.key })).status).toBe(200)
    expect((await app.operator("DELETE", `/api-keys/${seed.keyId}`)).status).toBe(204)
    expectProblem(await app.call("GET", "/api/v3/stores/me", { key: seed.key }), 401, "invalid_api_key")
  })

  it("answers 401 for an expired key from its expiry on, even right after a successful call", async () => {
    const seed = await app.seedStore()
    const expiresAt = new Date(clock.now() + 60_000)
    const issued = await app.operator("POST", `/stores/${seed.storeId}/api-keys`, {
      mode: "test",
      scopes: ["store:read"],
      expires_at: expiresAt.toISOString()
    })
    expect(issued.status).toBe(201)
    expect(issued.body.expires_at).toBe(expiresAt.toISOString())
    // Verified (and cached) a millisecond before the expiry; at the expiry instant it is refused.
    clock.advance(expiresAt.getTime() - 1 - clock.now())
    expect((await app.call("GET", "/api/v3/stores/me", { key: issued.body.key })).status).toBe(200)
    clock.advance(1)
    const expired = await app.call("GET", "/api/v3/stores/me", { key: issued.body.key })
    expectProblem(expired, 401, "invalid_api_key")
    expect(expired.body.detail).toMatch(/expired/)

    const bad = await app.operator("POST", `/stores/${seed.storeId}/api-keys`, { mode: "test", scopes: [], expires_at: "soon" })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].pointer).toBe("/expires_at")
  })

  it("refuses a key whose expires_at is not in the future (422), and mints one a millisecond ahead", async () => {
    const seed = await app.seedStore()
    const issue = (at: number) =>
      app.operator("POST", `/stores/${seed.storeId}/api-keys`, { mode: "test", scopes: ["store:read"], expires_at: new Date(at).toISOString() })
    for (const at of [clock.now() - 86_400_000, clock.now()]) {
      const dead = await issue(at)
      expectProblem(dead, 422, "validation_failed")
      expect(dead.body.errors).toEqual([expect.objectContaining({ pointer: "/expires_at", code: "out_of_range" })])
    }
    expect((await issue(clock.now() + 1)).status).toBe(201)
  })

  it("tells a client that sent a connector access token to the REST API where that token belongs", async () => {
    const jwt = ["eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCJ9", "eyJzdWIiOiIxIn0", "c2lnbmF0dXJl"].join(".")
    const refused = await app.call("GET", "/api/v3/stores/me", { key: jwt })
    expectProblem(refused, 401, "invalid_api_key")
    expect(refused.body.detail).toMatch(/connector access token.*agent endpoint/)
    const plain = await app.call("GET", "/api/v3/stores/me", { key: "not-a-key" })
    expect(plain.body.detail).toBe("The API key is not valid.")
  })

  it("answers 403 insufficient_scope with required and granted scopes", async () => {
    const seed = await app.seedStore({ scopes: ["pricing:read"] })
    const res = await app.call("GET", "/api/v3/stores/me", { key: seed.key })
    expectProblem(res, 403, "insufficient_scope")
    expect(res.body.required_scopes).toEqual(["store:read"])
    expect(res.body.granted_scopes).toEqual(["pricing:read"])
  })

  it("lets a legacy wildcard key through, reporting every scope", async () => {
    const seed = await app.seedStore("wildcard")
    const res = await app.call("GET", "/api/v3/stores/me", { key: seed.key })
    expect(res.status).toBe(200)
    expect(res.body.data.scopes).toEqual(expect.arrayContaining(["quotes:read", "orders:read", "products:read"]))
    expect(res.body.data.scopes).toHaveLength(12)
  })

  it("answers unknown routes with a 404 problem", async () => {
    expectProblem(await app.call("GET", "/api/v3/no-such-thing"), 404, "not_found")
    expectProblem(await app.call("POST", "/nowhere", { body: {} }), 404, "not_found")
  })

  it("answers malformed JSON with 400 and schema faults with 422 pointers", async () => {
    const malformed = await app.call("POST", "/operator/v1/companies", {
      body: "{not json",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }
    })
    expectProblem(malformed, 400, "malformed_request")
    const invalid = await app.operator("POST", `/stores/1/api-keys`, { mode: "sandbox", scopes: ["store:read", "nope"] })
    expectProblem(invalid, 422, "validation_failed")
    expect(invalid.body.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ pointer: "/mode", code: "unsupported_value", allowed_values: ["live", "test"] }),
      expect.objectContaining({ pointer: "/scopes/1", code: "unsupported_value" })
    ]))
    const missing = await app.operator("POST", "/stores", {})
    expect(missing.status).toBe(422)
    expect(missing.body.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ pointer: "/company_id", code: "required" }),
      expect.objectContaining({ pointer: "/name", code: "required" })
    ]))
  })

  it("answers an oversized body with 413", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) })
    expectProblem(await app.operator("POST", "/companies", big), 413, "payload_too_large")
  })

  it("never answers a 500 to odd input", async () => {
    const odd: ReadonlyArray<unknown> = ["null", "[]", "\"text\"", "123", "{\"name\":{\"$gt\":1}}", "\u0000", "{\"name\":\"\\ud800\"}"]
    for (const body of odd) {
      const res = await app.operator("POST", "/companies", body)
      expect(res.status, `body ${String(body)}`).toBeLessThan(500)
    }
    const res = await app.call("GET", "/api/v3/stores/me", { headers: { authorization: `Bearer ${"x".repeat(5000)}` } })
    expect(res.status).toBe(401)
  })

  it("puts the deprecation headers and the legacy error body on previous-generation paths", async () => {
    for (const path of ["/api/v2/customisers", "/api/orders", "/api/customisers/abc/products"]) {
      const res = await app.call("POST", path, { body: {} })
      expect(res.headers.get("deprecation")).toBe("@1784678400")
      expect(res.headers.get("sunset")).toBe("Fri, 22 Jan 2027 00:00:00 GMT")
      expect(res.headers.get("link")).toMatch(/^<http:\/\/localhost:8080\/docs\/migration>; rel=deprecation; type=text\/html$/)
      expect(res.body).toHaveProperty("message")
      expect(res.body).toHaveProperty("errors")
      expect(res.body).not.toHaveProperty("type")
    }
    const v3 = await app.call("GET", "/api/v3/stores/me")
    expect(v3.headers.get("deprecation")).toBeNull()
  })

  it("serves the OpenAPI 3.1 document and the reference page", async () => {
    const doc = await app.call("GET", "/api/v3/openapi.json")
    expect(doc.status).toBe(200)
    expect(doc.body.openapi).toBe("3.1.0")
    expect(Object.keys(doc.body.paths)).toContain("/api/v3/stores/me")
    const responses = doc.body.paths["/api/v3/stores/me"].get.responses
    expect(responses["401"].content["application/problem+json"]).toBeDefined()
    expect(JSON.stringify(doc.body.paths)).not.toContain("/operator/")
    const page = await app.handlerText("/docs")
    expect(page).toContain("/api/v3/stores/me")
    expect(page).toContain("insufficient_scope")
  })
})
