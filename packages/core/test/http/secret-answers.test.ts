import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestResponse } from "@signcraft/test-kit"

// RFC 9111 §5.2.2.5: an answer that carries a secret must not be kept by a browser or an
// intermediary. Each row makes the request twice where it takes an Idempotency-Key, so the replay,
// answered from the stored copy, is checked too.
describe("answers that carry a secret are not cached", () => {
  let app: ReturnType<typeof startApp>
  let storeId: number
  let key: string

  beforeAll(async () => {
    app = startApp({ _tag: "Embedded", location: "memory" }, { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 })
    const seed = await app.seedStore({ scopes: ["webhooks:read", "webhooks:write"] })
    storeId = seed.storeId
    key = seed.key
  })
  afterAll(() => app.dispose())

  const subscribe = (idempotencyKey: string) =>
    app.call("POST", "/api/v3/webhook-subscriptions", {
      key,
      headers: { "idempotency-key": idempotencyKey },
      body: { topic: "order:created", url: `http://127.0.0.1:9/${idempotencyKey}` }
    })
  const integration = () => app.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/cb" })

  const rows: ReadonlyArray<{ readonly name: string; readonly status: number; readonly secret: RegExp | undefined; readonly send: () => Promise<TestResponse> }> = [
    { name: "webhook subscription create", status: 201, secret: /whsec_/, send: () => subscribe("create-once") },
    { name: "webhook subscription create, replayed", status: 201, secret: /whsec_/, send: () => subscribe("create-once") },
    {
      name: "webhook secret rotation, and its replay",
      status: 200,
      secret: /whsec_/,
      send: async () => {
        const id = (await subscribe("to-rotate")).body.data.id
        const rotate = () =>
          app.call("POST", `/api/v3/webhook-subscriptions/${id}/rotate-secret`, { key, headers: { "idempotency-key": `rotate-${id}` } })
        const first = await rotate()
        expect(first.headers.get("cache-control")).toBe("no-store")
        return rotate()
      }
    },
    { name: "v2 webhook create", status: 200, secret: /whsec_/, send: () => app.call("POST", "/api/v2/webhooks", { key, body: { topic: "order:created", url: "http://127.0.0.1:9/v2" } }) },
    { name: "v2 webhook list", status: 200, secret: /whsec_/, send: () => app.call("GET", "/api/v2/webhooks", { key }) },
    { name: "operator API key create", status: 201, secret: /sk_/, send: () => app.operator("POST", `/stores/${storeId}/api-keys`, { mode: "live", scopes: ["store:read"] }) },
    { name: "integration create", status: 201, secret: /whsec_/, send: integration },
    {
      name: "integration PATCH",
      status: 200,
      secret: undefined,
      send: async () => app.operator("PATCH", `/integrations/${(await integration()).body.id}`, { enabled: false })
    }
  ]

  it.each(rows)("$name answers Cache-Control: no-store", async ({ status, secret, send }) => {
    const res = await send()
    expect(res.status).toBe(status)
    if (secret !== undefined) expect(JSON.stringify(res.body)).toMatch(secret)
    expect(res.headers.get("cache-control")).toBe("no-store")
  })

  it("leaves answers without a secret alone", async () => {
    const id = (await subscribe("read-me")).body.data.id
    const read = await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key })
    expect(read.status).toBe(200)
    expect(read.headers.get("cache-control")).toBeNull()
  })
})
