import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { startLoopbackServer, startProxy } from "@signcraft/test-kit/loopback"
import { type AttemptEvent, SigncraftClient, type SigncraftClientOptions, SigncraftProblem, verifyWebhook } from "../src/index.js"
import { makeSigncraftEffectClient } from "../src/effect.js"
import { fakeClock } from "./support/fake-clock.js"
import { webhooks } from "@signcraft/core/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const ALL_SCOPES = ["store:read", "orders:write", "products:write", "webhooks:read", "webhooks:write", "analytics:read", "customisers:read"]

describe.each(databaseVariants())("@signcraft/client against the real server ($name database)", (variant) => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  let seed: Awaited<ReturnType<typeof server.seedStore>>
  let integrationId: number
  let productId: number

  beforeAll(async () => {
    db = await variant.create()
    server = await startLoopbackServer(db.config)
    seed = await server.seedStore({ scopes: ALL_SCOPES })
    const integration = await server.operator("POST", `/stores/${seed.storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/products" })
    integrationId = integration.body.id
    const customiser = await server.operator("POST", `/stores/${seed.storeId}/customisers`, {
      name: "Neon", product_family: "neon", selection_mode: "single_style", pricing_model: "simple_letter"
    })
    const product = await server.call("POST", `/api/v3/customisers/${customiser.body.id}/products`, {
      key: seed.key,
      headers: { "idempotency-key": "seed-product" },
      body: { integration_id: integrationId, title: "Open", price_amount: 4200, currency: "USD" }
    })
    if (product.status !== 201) throw new Error(`product: ${product.status} ${JSON.stringify(product.body)} integration: ${JSON.stringify(integration.body)}`)
    productId = product.body.data.id
  })
  afterAll(async () => {
    await server?.dispose()
    await db?.cleanup()
  })

  const clientFor = (baseUrl: string, options: Partial<SigncraftClientOptions> = {}) => {
    const time = fakeClock()
    const attempts: Array<AttemptEvent> = []
    const client = new SigncraftClient({
      baseUrl,
      apiKey: seed.key,
      clock: time.clock,
      random: () => 0.5,
      onAttempt: (event) => void attempts.push(event),
      ...options
    })
    return { client, attempts, sleeps: time.sleeps }
  }
  const order = (storeOrderId: string) => ({
    integration_id: integrationId,
    store_order_id: storeOrderId,
    store_order_number: "1001",
    total_amount: 4200,
    currency: "USD",
    line_items: [{ product_id: productId, quantity: 1 }]
  })
  // Counted in the database itself: what the server stored, whatever it answered.
  const ordersNamed = (storeOrderId: string) =>
    server.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM orders WHERE store_order_id = ${storeOrderId}`
      return rows[0]?.n
    }))

  it("resolves status, headers and body of a 2xx, keeping unknown members, and reports each attempt's request id", async () => {
    const { client, attempts } = clientFor(server.url)
    const response = await client.request<{ data: { id: number; scopes: Array<string> }; meta: { request_id: string } }>("GET", "/api/v3/stores/me")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("json")
    expect(response.body.data.id).toBe(seed.storeId)
    expect(response.body.meta.request_id).toMatch(/^req_/)
    expect(attempts).toMatchObject([{ method: "GET", attempt: 0, status: 200, requestId: response.body.meta.request_id, retryInMs: undefined }])
  })

  it("repeats a write whose answer was lost with the same key and body: exactly one order is created", async () => {
    const proxy = await startProxy(server.url, (_request, index) => (index === 0 ? { _tag: "ForwardAndDrop" } : { _tag: "Forward" }))
    try {
      const { client, attempts } = clientFor(proxy.url)
      const created = await client.request<{ data: { id: number } }>("POST", "/api/v3/orders", { body: order("lost-answer") })
      expect(created.status).toBe(201)
      expect(created.headers.get("idempotency-replay")).toBe("true")
      expect(proxy.seen).toHaveLength(2)
      const [first, second] = proxy.seen
      expect(first?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/)
      expect(second?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"])
      expect(second?.body).toBe(first?.body)
      expect(attempts.map((a) => a.status)).toEqual([undefined, 201])
      expect(await ordersNamed("lost-answer")).toBe(1)
    } finally {
      await proxy.close()
    }
  })

  it("keeps the caller's Idempotency-Key, and a reused key with another body is a 409 conflict, never retried", async () => {
    const { client, attempts } = clientFor(server.url)
    const first = await client.request("POST", "/api/v3/orders", { body: order("caller-key"), idempotencyKey: "caller-key-1" })
    expect(first.status).toBe(201)
    const replay = await client.request("POST", "/api/v3/orders", { body: order("caller-key"), idempotencyKey: "caller-key-1" })
    expect(replay.headers.get("idempotency-replay")).toBe("true")
    const conflict = await client.request("POST", "/api/v3/orders", { body: order("other"), idempotencyKey: "caller-key-1" }).catch((e: unknown) => e)
    expect(conflict).toBeInstanceOf(SigncraftProblem)
    expect(conflict).toMatchObject({ status: 409, code: "idempotency_key_conflict" })
    expect(attempts.map((a) => a.idempotencyKey)).toEqual(["caller-key-1", "caller-key-1", "caller-key-1"])
    expect(attempts).toHaveLength(3)
  })

  it("retries a GET answered 503 with Retry-After, waiting at least Retry-After from the answer's arrival", async () => {
    const proxy = await startProxy(server.url, (_request, index) =>
      index === 0 ? { _tag: "Answer", status: 503, headers: { "retry-after": "4" }, body: { code: "internal_error" } } : { _tag: "Forward" })
    try {
      const { client, sleeps, attempts } = clientFor(proxy.url)
      const response = await client.request("GET", "/api/v3/stores/me")
      expect(response.status).toBe(200)
      // Jitter alone (0.5 × 500 ms) would be 250 ms: Retry-After wins.
      expect(sleeps).toEqual([4000])
      expect(attempts.map((a) => [a.status, a.retryInMs])).toEqual([[503, 4000], [200, undefined]])
    } finally {
      await proxy.close()
    }
  })

  it("repeats a write answered 503 with the same key and body, and its first answer never counts twice", async () => {
    const proxy = await startProxy(server.url, (_request, index) =>
      index === 0 ? { _tag: "Answer", status: 503, headers: { "retry-after": "1" } } : { _tag: "Forward" })
    try {
      const { client, sleeps } = clientFor(proxy.url)
      await client.request("POST", "/api/v3/orders", { body: order("after-503") })
      expect(sleeps).toEqual([1000])
      expect(proxy.seen[1]?.headers["idempotency-key"]).toBe(proxy.seen[0]?.headers["idempotency-key"])
      expect(proxy.seen[1]?.body).toBe(proxy.seen[0]?.body)
      expect(await ordersNamed("after-503")).toBe(1)
    } finally {
      await proxy.close()
    }
  })

  it("waits retry_after on idempotency_key_in_flight, then repeats with the same key and body", async () => {
    const inFlight = { status: 409, code: "idempotency_key_in_flight", retry_after: 2, detail: "running", request_id: "req_x" }
    const proxy = await startProxy(server.url, (_request, index) =>
      index === 0 ? { _tag: "Answer", status: 409, body: inFlight } : { _tag: "Forward" })
    try {
      const { client, sleeps } = clientFor(proxy.url)
      const created = await client.request("POST", "/api/v3/orders", { body: order("in-flight") })
      expect(created.status).toBe(201)
      expect(sleeps).toEqual([2000])
      expect(proxy.seen[1]?.headers["idempotency-key"]).toBe(proxy.seen[0]?.headers["idempotency-key"])
      expect(proxy.seen[1]?.body).toBe(proxy.seen[0]?.body)
    } finally {
      await proxy.close()
    }
  })

  it("retries a GET after a network failure, and gives up after maxRetries with the network error", async () => {
    const proxy = await startProxy(server.url, (_request, index) => (index === 0 ? { _tag: "Hangup" } : { _tag: "Forward" }))
    try {
      const { client, sleeps } = clientFor(proxy.url)
      expect((await client.request("GET", "/api/v3/stores/me")).status).toBe(200)
      expect(sleeps).toEqual([250])
    } finally {
      await proxy.close()
    }
    const dead = await startProxy(server.url, () => ({ _tag: "Hangup" }))
    try {
      const { client, sleeps } = clientFor(dead.url, { maxRetries: 2 })
      await expect(client.request("GET", "/api/v3/stores/me")).rejects.toBeInstanceOf(TypeError)
      expect(dead.seen).toHaveLength(3)
      // Full jitter at 0.5 of 500 ms doubling.
      expect(sleeps).toEqual([250, 500])
    } finally {
      await dead.close()
    }
  })

  it("sends one attempt only with maxRetries 0", async () => {
    const proxy = await startProxy(server.url, () => ({ _tag: "Answer", status: 503 }))
    try {
      const { client, sleeps } = clientFor(proxy.url, { maxRetries: 0 })
      await expect(client.request("GET", "/api/v3/stores/me")).rejects.toMatchObject({ status: 503, code: "unexpected_response" })
      expect(proxy.seen).toHaveLength(1)
      expect(sleeps).toEqual([])
    } finally {
      await proxy.close()
    }
  })

  it("retries a GET answered 429 no sooner than Retry-After, then rejects with rate_limited and its retryAfter", async () => {
    const limited = await startLoopbackServer(db.config, { rateLimitPerKeyPerMinute: 1 })
    try {
      const own = await limited.seedStore()
      const { client, sleeps } = clientFor(limited.url, { apiKey: own.key, maxRetries: 1 })
      await client.request("GET", "/api/v3/stores/me")
      const problem = await client.request("GET", "/api/v3/stores/me").catch((e: unknown) => e)
      expect(problem).toBeInstanceOf(SigncraftProblem)
      const { retryAfter, code, status } = problem as SigncraftProblem
      expect({ code, status }).toEqual({ code: "rate_limited", status: 429 })
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(sleeps).toHaveLength(1)
      // The first 429's Retry-After (at least the second one's, which came later).
      expect(sleeps[0]).toBeGreaterThanOrEqual((retryAfter ?? 0) * 1000)
    } finally {
      await limited.dispose()
    }
  })

  it("never retries 401, 403, 404 or 422 from the server, and reads their problem documents", async () => {
    const { client, attempts } = clientFor(server.url)
    const bad = new SigncraftClient({ baseUrl: server.url, apiKey: "sk_test_not_a_real_key_0000000000000000", clock: fakeClock().clock })
    const narrow = await server.seedStore({ scopes: ["store:read"] })
    const narrowClient = new SigncraftClient({ baseUrl: server.url, apiKey: narrow.key, clock: fakeClock().clock })
    const failures = await Promise.all([
      bad.request("GET", "/api/v3/stores/me").catch((e: unknown) => e),
      narrowClient.request("GET", "/api/v3/analytics/summary").catch((e: unknown) => e),
      client.request("GET", "/api/v3/customisers/999999").catch((e: unknown) => e),
      client.request("GET", "/api/v3/analytics/summary", { query: { period: "8d" } }).catch((e: unknown) => e),
      client.request("POST", "/api/v3/orders", { body: { ...order("bad"), total_amount: "lots" } }).catch((e: unknown) => e)
    ])
    expect(failures.map((f) => f instanceof SigncraftProblem && [f.status, f.code])).toEqual([
      [401, "invalid_api_key"],
      [403, "insufficient_scope"],
      [404, "not_found"],
      [422, "invalid_parameter"],
      [422, "validation_failed"]
    ])
    const scope = failures[1] as SigncraftProblem
    expect(scope.requiredScopes).toEqual(["analytics:read"])
    expect(scope.grantedScopes).toEqual(["store:read"])
    const period = failures[3] as SigncraftProblem
    expect(period.errors[0]).toMatchObject({ parameter: "period", code: "unsupported_value" })
    expect(period.requestId).toMatch(/^req_/)
    // One attempt per call of `client` (the other two clients have no hook).
    expect(attempts).toHaveLength(3)
  })

  it("never retries 400, 401, 403, 404 or 422, for reads and writes, whatever the headers say", async () => {
    for (const status of [400, 401, 403, 404, 422]) {
      const proxy = await startProxy(server.url, () => ({ _tag: "Answer", status, headers: { "retry-after": "1" }, body: { status, code: "some_code", detail: "no" } }))
      try {
        const { client } = clientFor(proxy.url)
        await expect(client.request("GET", "/api/v3/stores/me")).rejects.toMatchObject({ status })
        await expect(client.request("POST", "/api/v3/orders", { body: order("x") })).rejects.toMatchObject({ status })
        expect(proxy.seen).toHaveLength(2)
      } finally {
        await proxy.close()
      }
    }
  })

  it("tolerates unknown problem codes and members, and non-JSON error pages", async () => {
    const proxy = await startProxy(server.url, (_request, index) =>
      index === 0
        ? { _tag: "Answer", status: 418, body: { status: 418, code: "brand_new_code", detail: "new", request_id: "req_1", novel: { x: 1 } } }
        : { _tag: "Answer", status: 400, headers: { "content-type": "text/html" }, body: "<html>" })
    try {
      const { client } = clientFor(proxy.url)
      const unknown = (await client.request("GET", "/api/v3/stores/me").catch((e: unknown) => e)) as SigncraftProblem
      expect(unknown).toMatchObject({ status: 418, code: "brand_new_code", detail: "new", requestId: "req_1", errors: [] })
      expect(unknown.body).toMatchObject({ novel: { x: 1 } })
      const page = (await client.request("GET", "/api/v3/stores/me").catch((e: unknown) => e)) as SigncraftProblem
      expect(page).toMatchObject({ status: 400, code: "unexpected_response" })
    } finally {
      await proxy.close()
    }
  })

  it("reads a previous-generation error ({message, errors}) without retrying it, its deprecation headers kept", async () => {
    const legacy = await server.seedStore("wildcard")
    const { client, attempts } = clientFor(server.url, { apiKey: legacy.key })
    const problem = (await client.request("PUT", "/api/v2/customisers/999999/pricing", { body: { pricing: {} } }).catch((e: unknown) => e)) as SigncraftProblem
    expect(problem).toBeInstanceOf(SigncraftProblem)
    expect(problem.status).toBe(404)
    expect(problem.detail).toBe((problem.body as { message: string }).message)
    expect(problem.headers.get("deprecation")).toBe("@1784678400")
    expect(problem.requestId).toMatch(/^req_/)
    expect(attempts).toHaveLength(1)
  })

  it("paginates a collection by following links.next unchanged", async () => {
    const { client } = clientFor(server.url)
    for (const n of [1, 2, 3]) {
      await client.request("POST", "/api/v3/webhook-subscriptions", { body: { topic: "order:created", url: `http://127.0.0.1:9/hook-${n}` } })
    }
    const urls: Array<string> = []
    const bodies: Array<{ links?: { next?: string } }> = []
    const recording = new SigncraftClient({
      baseUrl: server.url,
      apiKey: seed.key,
      fetch: async (input, init) => {
        urls.push(String(input))
        const response = await fetch(input, init)
        bodies.push(await response.clone().json())
        return response
      }
    })
    const items: Array<{ url: string }> = []
    for await (const item of recording.paginate<{ url: string }>("/api/v3/webhook-subscriptions", { limit: 1 })) items.push(item)
    expect(items.map((i) => i.url).sort()).toEqual(["http://127.0.0.1:9/hook-1", "http://127.0.0.1:9/hook-2", "http://127.0.0.1:9/hook-3"])
    expect(urls).toHaveLength(3)
    expect(urls[1]).toBe(bodies[0]?.links?.next)
    expect(urls[2]).toBe(bodies[1]?.links?.next)
  })

  it("never sends the key to another origin named by a response", async () => {
    const { client } = clientFor(server.url)
    await expect(client.request("GET", "http://127.0.0.2:1/api/v3/stores/me")).rejects.toThrow(/Refusing/)
  })

  it("offers typed methods per v3 operation, as Promises and as an Effect client", async () => {
    const { client } = clientFor(server.url)
    const me = await client.v3.v3Stores.me({})
    expect(me.body.data.id).toBe(seed.storeId)
    // The types come from the API definition: a wrong payload or a missing path parameter does not compile.
    expectTypeOf(me.body.data.platform).toEqualTypeOf<string>()
    expectTypeOf(client.v3.v3Customisers.getPricing).parameter(0).toHaveProperty("params").toEqualTypeOf<{ readonly customiser_id: string | number }>()
    // @ts-expect-error: an order needs integration_id, total_amount and line_items
    const wrong = () => client.v3.v3Commerce.createOrder({ payload: { title: "x" } })
    expect(typeof wrong).toBe("function")
    const created = await client.v3.v3Commerce.createOrder({ payload: order("typed") })
    expect(created.body.data.status).toBe("received")
    const effectClient = await Effect.runPromise(makeSigncraftEffectClient(client))
    const viaEffect = await Effect.runPromise(effectClient.v3Stores.me())
    expect(viaEffect.data.id).toBe(seed.storeId)
  })

  it("sends the Effect client through the same rules: a lost answer is repeated with one key, one order", async () => {
    const proxy = await startProxy(server.url, (_request, index) => (index === 0 ? { _tag: "ForwardAndDrop" } : { _tag: "Forward" }))
    try {
      const { client } = clientFor(proxy.url)
      const effectClient = await Effect.runPromise(makeSigncraftEffectClient(client))
      const created = await Effect.runPromise(effectClient.v3Commerce.createOrder({ headers: {}, payload: order("effect-lost") }))
      expect(created.data.status).toBe("received")
      expect(proxy.seen).toHaveLength(2)
      expect(proxy.seen[0]?.headers["idempotency-key"]).toBeDefined()
      expect(proxy.seen[1]?.headers["idempotency-key"]).toBe(proxy.seen[0]?.headers["idempotency-key"])
      expect(await ordersNamed("effect-lost")).toBe(1)
    } finally {
      await proxy.close()
    }
  })

  it("re-exports verifyWebhook, which checks the raw bytes", () => {
    const raw = JSON.stringify({ product: { product_id: 1 } })
    const headers = webhooks.signatureHeaders("whsec_1", raw, new Date())
    expect(verifyWebhook({ rawBody: raw, headers, secret: "whsec_1" })).toEqual({ ok: true })
    expect(verifyWebhook({ rawBody: JSON.stringify(JSON.parse(raw), null, 1), headers, secret: "whsec_1" }).ok).toBe(false)
  })
})

describe("@signcraft/client waits", () => {
  it("measures a wait from the moment the failing answer arrived, not from when its body was read", async () => {
    const time = fakeClock(0)
    let calls = 0
    // The 503's body takes 1.5 s (of the fake clock) to arrive after its headers.
    const slowBody = () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => {
          time.advance(1500)
          controller.enqueue(new TextEncoder().encode("{}"))
          controller.close()
        }
      }, { highWaterMark: 0 })
    const client = new SigncraftClient({
      baseUrl: "http://127.0.0.1:1",
      apiKey: "sk_test_x",
      clock: time.clock,
      random: () => 0,
      fetch: async () => {
        calls += 1
        return calls === 1 ? new Response(slowBody(), { status: 503, headers: { "retry-after": "4" } }) : Response.json({ data: {} })
      }
    })
    await client.request("GET", "/api/v3/stores/me")
    expect(time.sleeps).toEqual([2500])
  })
})
