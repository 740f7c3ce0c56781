import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SigncraftApi } from "../../src/http/api/index.js"
import { apiRouteTable } from "../../src/http/route-table.js"
import { createCustomiser, databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"

// Every v3 operation's scope, written out from the documented endpoint tables (`/docs`) and
// the scope list (never read back from the code's annotations, so a mis-annotated endpoint
// fails here). A new v3 operation fails the completeness check until it is listed.
const EVERY_SCOPE = [
  "analytics:read",
  "store:read",
  "customisers:read",
  "pricing:read",
  "pricing:write",
  "orders:read",
  "orders:write",
  "products:read",
  "products:write",
  "webhooks:read",
  "webhooks:write",
  "quotes:read"
]

/** `[method, path, the scopes any one of which allows it]`. */
const OPERATIONS: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  ["GET", "/api/v3/stores/me", ["store:read"]],
  ["GET", "/api/v3/analytics/summary", ["analytics:read"]],
  ["GET", "/api/v3/customisers", ["customisers:read"]],
  ["GET", "/api/v3/customisers/:customiser_id", ["customisers:read"]],
  ["GET", "/api/v3/customisers/:customiser_id/pricing", ["pricing:read"]],
  ["PUT", "/api/v3/customisers/:customiser_id/pricing", ["pricing:write"]],
  ["PATCH", "/api/v3/customisers/:customiser_id/pricing", ["pricing:write"]],
  ["POST", "/api/v3/customisers/:customiser_id/pricing/validate", ["pricing:read", "pricing:write"]],
  ["POST", "/api/v3/customisers/:customiser_id/products", ["products:write"]],
  ["GET", "/api/v3/products/:product_id", ["products:read"]],
  ["GET", "/api/v3/orders", ["orders:read"]],
  ["GET", "/api/v3/orders/:order_id", ["orders:read"]],
  ["POST", "/api/v3/orders", ["orders:write"]],
  ["GET", "/api/v3/quotes", ["quotes:read"]],
  ["GET", "/api/v3/webhook-subscriptions", ["webhooks:read"]],
  ["POST", "/api/v3/webhook-subscriptions", ["webhooks:write"]],
  ["GET", "/api/v3/webhook-subscriptions/:webhook_id", ["webhooks:read"]],
  ["PATCH", "/api/v3/webhook-subscriptions/:webhook_id", ["webhooks:write"]],
  ["DELETE", "/api/v3/webhook-subscriptions/:webhook_id", ["webhooks:write"]],
  ["POST", "/api/v3/webhook-subscriptions/:webhook_id/rotate-secret", ["webhooks:write"]],
  ["GET", "/api/v3/webhook-subscriptions/:webhook_id/deliveries", ["webhooks:read"]],
  ["POST", "/api/v3/webhook-subscriptions/:webhook_id/deliveries/:delivery_id/redeliver", ["webhooks:write"]],
  ["GET", "/api/v3/webhook-event-types", ["webhooks:read"]],
  ["POST", "/api/v3/webhook-subscriptions/:webhook_id/events/:event_id/resend", ["webhooks:write"]],
  ["POST", "/api/v3/webhook-subscriptions/:webhook_id/recover", ["webhooks:write"]],
  ["POST", "/api/v3/webhook-subscriptions/:webhook_id/test", ["webhooks:write"]],
  ["GET", "/api/v3/events", ["webhooks:read"]],
  ["GET", "/api/v3/events/:event_id", ["webhooks:read"]]
]

// Operations any valid key may call (the documents describing the API itself).
const UNSCOPED = new Set(["GET /api/v3/openapi.json"])

describe("the v3 scope table", () => {
  it("lists every v3 operation the API defines, and only those", () => {
    const defined = apiRouteTable(SigncraftApi)
      .filter((route) => route.path.startsWith("/api/v3/"))
      .map((route) => `${route.method} ${route.path}`)
      .filter((operation) => !UNSCOPED.has(operation))
    expect([...defined].sort()).toEqual(OPERATIONS.map(([method, path]) => `${method} ${path}`).sort())
  })
})

describe.each(databaseVariants())("every v3 operation refuses a key without its scope ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let ids: Record<string, number | string>
  let storeId: number
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 100_000, rateLimitPerIpPerMinute: 100_000 })
    const seed = await app.seedStore("wildcard")
    storeId = seed.storeId
    const customiser = await createCustomiser(app, seed.storeId)
    ids = { customiser_id: customiser.id, product_id: 1, order_id: 1, webhook_id: 1, delivery_id: 1, event_id: "evt_1" }
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const keyWith = async (scopes: ReadonlyArray<string>): Promise<string> => {
    const key = await app.operator("POST", `/stores/${storeId}/api-keys`, { mode: "test", scopes })
    expect(key.status).toBe(201)
    return key.body.key
  }
  const concrete = (path: string) => path.replace(/:([a-z_]+)/g, (_match, name: string) => String(ids[name]))
  const send = (method: string, path: string, key: string) =>
    app.call(method, concrete(path), {
      key,
      headers: { "idempotency-key": crypto.randomUUID() },
      ...(method === "GET" || method === "DELETE" ? {} : { body: {} })
    })

  it.each(OPERATIONS)("%s %s answers 403 insufficient_scope without %j, and passes the scope check with it", async (method, path, scopes) => {
    const without = await send(method, path, await keyWith(EVERY_SCOPE.filter((scope) => !scopes.includes(scope))))
    expect(without.status).toBe(403)
    expect(without.body.code).toBe("insufficient_scope")
    expect([...without.body.required_scopes].sort()).toEqual([...scopes].sort())
    for (const scope of scopes) {
      const withIt = await send(method, path, await keyWith([scope]))
      expect(withIt.status, `${method} ${path} with ${scope}`).not.toBe(403)
    }
  })
})
