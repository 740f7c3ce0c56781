import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCustomiser, databaseVariants, OPERATOR_TOKEN, startApp, TEST_SECRETS_KEY, type TestDatabase } from "@signcraft/test-kit"

// docs/input-handling.md through the real handler: input no field can take is a 4xx naming
// the field in the generation's own format; v3 and operator bodies refuse unknown members;
// a known path with another method is a 405 with Allow.

const deep = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`

describe.each(databaseVariants())("input edges ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("refuses NUL and unpaired surrogates naming the field: operator, v3, storefront and v2", async () => {
    const nul = await app.operator("POST", "/companies", { name: "a\u0000b" })
    expect(nul.status).toBe(422)
    expect(nul.headers.get("content-type")).toContain("application/problem+json")
    expect(nul.body.errors).toEqual([expect.objectContaining({ pointer: "/name", code: "invalid_value" })])

    const seed = await app.seedStore({ scopes: ["webhooks:write", "webhooks:read"] })
    const v3 = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: seed.key,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: '{"topic":"order:created","url":"http://127.0.0.1:9/\\ud800"}'
    })
    expect(v3.status).toBe(422)
    expect(v3.body.errors[0].pointer).toBe("/url")

    const customiser = await createCustomiser(app, seed.storeId)
    const form = await app.call("POST", `/storefront/v1/customisers/${customiser.id}/form-submissions`, {
      body: { responses: [{ field_id: "f\u0000", name: "n", input_type: "text", value: "v" }] }
    })
    expect(form.status).toBe(422)
    expect(form.body.errors[0].pointer).toBe("/responses/0/field_id")

    const wildcard = await app.seedStore("wildcard")
    const v2 = await app.call("POST", "/api/v2/webhooks", {
      key: wildcard.key,
      body: { topic: "order:created", url: "http://127.0.0.1:9/h", meta: { a: "\u0000" } }
    })
    expect(v2.status).toBe(422)
    expect(v2.body.errors).toEqual({ "meta.a": [expect.stringContaining("NUL")] })
  })

  it("names members called constructor or __proto__ in the legacy format too", async () => {
    const wildcard = await app.seedStore("wildcard")
    const res = await app.call("POST", "/api/v2/webhooks", {
      key: wildcard.key,
      body: '{"topic":"order:created","url":"http://127.0.0.1:9/h","constructor":"\\ud800"}'
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(["constructor"])
    const proto = await app.call("POST", "/api/v2/webhooks", {
      key: wildcard.key,
      body: '{"topic":"order:created","url":"http://127.0.0.1:9/h","__proto__":1e400}'
    })
    expect(proto.status).toBe(422)
    expect(Object.keys(proto.body.errors)).toEqual(["__proto__"])
  })

  it("refuses an identifier too long to index and an overlong person email, naming the field", async () => {
    const seed = await app.seedStore("wildcard")
    const customiser = await createCustomiser(app, seed.storeId)
    const product = await app.call("POST", `/api/customisers/${customiser.id}/products`, {
      key: seed.key,
      body: { product_id: "p".repeat(300_000), cart: {}, price_breakdown: {} }
    })
    expect(product.status).toBe(422)
    expect(Object.keys(product.body.errors)).toEqual(["product_id"])
    const company = await app.operator("POST", "/companies", { name: "Acme" })
    const person = await app.operator("POST", "/persons", {
      company_id: company.body.id,
      email: `${"a".repeat(250)}@example.com`,
      password: "correct horse battery staple"
    })
    expect(person.status).toBe(422)
    expect(person.body.errors[0].pointer).toBe("/email")
  })

  it("refuses a number beyond every field and nesting past 64 levels, naming where", async () => {
    const seed = await app.seedStore()
    const raw = await app.call("POST", `/operator/v1/stores/${seed.storeId}/orders/import`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      body: '{"orders":[{"created_at":"2026-01-01T00:00:00Z","total_amount":1e400,"currency":"USD"}]}'
    })
    expect(raw.status).toBe(422)
    expect(raw.body.errors).toEqual([expect.objectContaining({ pointer: "/orders/0/total_amount", code: "out_of_range" })])

    const pricing = await app.seedStore({ scopes: ["pricing:write"] })
    const customiser = await createCustomiser(app, pricing.storeId)
    const tooDeep = await app.call("PATCH", `/api/v3/customisers/${customiser.id}/pricing`, {
      key: pricing.key,
      headers: { "idempotency-key": crypto.randomUUID(), "content-type": "application/merge-patch+json" },
      body: `{"base_pricing":${deep(10_000)}}`
    })
    expect(tooDeep.status).toBe(422)
    expect(tooDeep.body.errors[0].code).toBe("too_deep")
  })

  it("refuses members a v3 or operator body does not define; v2 bodies keep ignoring them", async () => {
    const operator = await app.operator("POST", "/companies", { name: "Acme", nmae: "typo" })
    expect(operator.status).toBe(422)
    expect(operator.body.code).toBe("validation_failed")
    expect(operator.body.errors).toEqual([expect.objectContaining({ pointer: "/nmae", code: "unknown_field" })])

    const seed = await app.seedStore({ scopes: ["webhooks:write"] })
    const v3 = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: seed.key,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { topic: "order:created", url: "http://127.0.0.1:9/h", bogus: true }
    })
    expect(v3.status).toBe(422)
    expect(v3.body.errors).toEqual([expect.objectContaining({ pointer: "/bogus", code: "unknown_field" })])

    // A merge patch's null removes a member: a misspelt one removes nothing, and is refused too.
    const pricing = await app.seedStore({ scopes: ["pricing:read", "pricing:write"] })
    const customiser = await createCustomiser(app, pricing.storeId)
    const before = await app.call("GET", `/api/v3/customisers/${customiser.id}/pricing`, { key: pricing.key })
    const misspelt = await app.call("PATCH", `/api/v3/customisers/${customiser.id}/pricing`, {
      key: pricing.key,
      headers: { "idempotency-key": crypto.randomUUID(), "content-type": "application/merge-patch+json" },
      body: '{"sheet_pricng":null}'
    })
    expect(misspelt.status).toBe(422)
    expect(misspelt.body.errors).toEqual([expect.objectContaining({ pointer: "/sheet_pricng", code: "unknown_field" })])
    const after = await app.call("GET", `/api/v3/customisers/${customiser.id}/pricing`, { key: pricing.key })
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"))

    const wildcard = await app.seedStore("wildcard")
    const v2 = await app.call("POST", "/api/v2/webhooks", {
      key: wildcard.key,
      body: { topic: "order:created", url: "http://127.0.0.1:9/h", bogus: true }
    })
    expect(v2.status).toBeLessThan(300)
  })

  it("answers a known path with another method 405 and Allow, in each generation's format", async () => {
    const seed = await app.seedStore()
    const v3 = await app.call("DELETE", "/api/v3/stores/me", { key: seed.key })
    expect(v3.status).toBe(405)
    expect(v3.headers.get("allow")).toBe("GET, HEAD")
    expect(v3.body.code).toBe("method_not_allowed")

    const legacy = await app.call("PUT", "/api/orders", { body: {} })
    expect(legacy.status).toBe(405)
    expect(legacy.headers.get("allow")).toBe("POST")
    expect(legacy.body).toEqual({ message: expect.any(String), errors: {} })

    const oauth = await app.call("GET", "/oauth/token")
    expect(oauth.status).toBe(405)
    expect(oauth.headers.get("allow")).toBe("OPTIONS, POST")
    expect(oauth.body.error).toBe("invalid_request")

    expect((await app.call("GET", "/api/v3/no-such-thing", { key: seed.key })).status).toBe(404)
  })

  it("marks every answer nosniff, and sends HSTS only in production", async () => {
    for (const path of ["/healthz", "/api/v3/stores/me", "/docs/problems", "/no-such-path", "/oauth/token"]) {
      const res = await app.handler(new Request(`http://127.0.0.1${path}`))
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff")
      expect(res.headers.get("strict-transport-security"), path).toBeNull()
    }
    // A database of its own: what the test app sealed under the development key, the cursor key
    // among it, does not open with this SECRETS_KEY.
    const production = startApp({ _tag: "Embedded", location: "memory" }, { environment: "production", baseUrl: "https://api.example", secretsKey: TEST_SECRETS_KEY })
    try {
      const res = await production.handler(new Request("https://api.example/healthz"))
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    } finally {
      await production.dispose()
    }
  })

  it("answers a body in a media type the operation does not read with 415 unsupported_media_type", async () => {
    const seed = await app.seedStore({ scopes: ["orders:write"] })
    const res = await app.call("POST", "/api/v3/orders", { key: seed.key, headers: { "content-type": "text/plain" }, body: "hello" })
    expect(res.status).toBe(415)
    expect(res.headers.get("content-type")).toContain("application/problem+json")
    expect(res.body.code).toBe("unsupported_media_type")
    expect(new URL(res.body.type).pathname).toBe("/docs/problems/unsupported_media_type")
  })

  it("inspects only bodies a route will serve: unknown paths stay 404, a disabled operator API stays hidden", async () => {
    const nul = '{"name":"a\\u0000b"}'
    expect((await app.call("POST", "/api/v3/no-such-thing", { body: nul })).status).toBe(404)
    const hidden = startApp(db.config, { operatorToken: undefined })
    try {
      const res = await hidden.call("POST", "/operator/v1/companies", { body: nul })
      expect(res.status).toBe(404)
    } finally {
      await hidden.dispose()
    }
  })

  it("answers the OAuth endpoints' bad input in RFC 6749 form and the agent endpoint's in JSON-RPC", async () => {
    const token = await app.call("POST", "/oauth/token", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&client_id=%00&refresh_token=x"
    })
    expect(token.status).toBe(400)
    expect(token.body).toEqual({ error: "invalid_request", error_description: expect.stringContaining("client_id") })

    const register = await app.call("POST", "/oauth/register", {
      body: { client_name: "\u0000", redirect_uris: ["http://127.0.0.1:7777/cb"] }
    })
    expect(register.status).toBe(400)
    expect(register.body.error).toBe("invalid_client_metadata")
    expect(register.body.error_description).toContain("/client_name")

    const big = "x".repeat(1024 * 1024 + 1)
    const oversizedToken = await app.call("POST", "/oauth/token", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=${big}`
    })
    expect(oversizedToken.status).toBe(413)
    expect(oversizedToken.body.error).toBe("invalid_request")

    // Declared too large: refused before the token is even looked at.
    const message = `{"jsonrpc":"2.0","id":1,"method":"${big}"}`
    const oversizedAgent = await app.call("POST", "/mcp", {
      headers: { "content-length": String(Buffer.byteLength(message)) },
      body: message
    })
    expect(oversizedAgent.status).toBe(413)
    expect(oversizedAgent.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
  })
})
