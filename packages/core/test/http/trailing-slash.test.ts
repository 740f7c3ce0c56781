import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, startApp, type TestDatabase } from "@signcraft/test-kit"

// A route has one URL: with a trailing slash it is an unknown path (404, no 405), at the origin's
// root and under a base path alike.
describe.each([
  { name: "at the root", baseUrl: "http://127.0.0.1", prefix: "" },
  { name: "under /signs", baseUrl: "http://127.0.0.1/signs", prefix: "/signs" }
])("a trailing slash ($name)", ({ baseUrl, prefix }) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    app = startApp(db.config, { baseUrl })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("answers 404 like an unknown path, where the path without it is served", async () => {
    const seed = await app.seedStore({ scopes: ["store:read", "orders:read"] })
    const unknown = await app.call("GET", `${prefix}/no-such-thing`, { key: seed.key })
    for (const path of ["/api/v3/orders", "/api/v3/stores/me", "/healthz", "/api/v3/openapi.json"]) {
      expect((await app.call("GET", `${prefix}${path}`, { key: seed.key })).status).toBe(200)
      const slashed = await app.call("GET", `${prefix}${path}/`, { key: seed.key })
      expect({ path, status: slashed.status, code: slashed.body?.code }).toEqual({ path, status: 404, code: unknown.body.code })
    }
    expect((await app.call("DELETE", `${prefix}/api/v3/orders/`, { key: seed.key })).status).toBe(404)
  })
})
