import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

// Two instances of the app over one database, each with its own services and caches, stand for
// two server processes. Each credential is used on both just before it is revoked, so both hold
// whatever they cache about it; both must refuse it as soon as the revoking call has returned.
describe.each(databaseVariants())("revocation on every server process ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>
  // Real speed, as the caches' bounds assume; frozen only where a test stands at an instant.
  const clock = adjustableClock({ running: true })

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config, {}, { clock })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const storesMe = (key: string) => {
    const init = { headers: { authorization: `Bearer ${key}` } }
    return Promise.all([app.json("/api/v3/stores/me", init), app.twinJson("/api/v3/stores/me", init)])
      .then((answers) => answers.map((answer) => answer.status))
  }
  const getStore = (token: string) =>
    Promise.all([
      app.mcp(token, "tools/call", { name: "get_store", arguments: {} }),
      app.twinMcp(token, "tools/call", { name: "get_store", arguments: {} })
    ]).then((answers) => answers.map((answer) => answer.status))

  const issueKey = async (extra: Record<string, unknown> = {}) => {
    const merchant = await app.seedMerchant()
    const key = await app.operator("POST", `/stores/${merchant.storeIds[0]}/api-keys`, { mode: "test", scopes: ["store:read"], ...extra })
    expect(key.status).toBe(201)
    return { id: key.body.id as number, key: key.body.key as string }
  }

  it("refuses a revoked API key on both processes once DELETE /api-keys/{id} has returned", async () => {
    const { id, key } = await issueKey()
    expect(await storesMe(key)).toEqual([200, 200])
    expect((await app.operator("DELETE", `/api-keys/${id}`)).status).toBe(204)
    expect(await storesMe(key)).toEqual([401, 401])
  })

  it("refuses an expired API key on both processes from its expiry instant", async () => {
    const expiresAt = clock.now() + 60_000
    const { key } = await issueKey({ expires_at: new Date(expiresAt).toISOString() })
    clock.freeze()
    try {
      clock.advance(expiresAt - 1 - clock.now())
      expect(await storesMe(key)).toEqual([200, 200])
      clock.advance(1)
      expect(await storesMe(key)).toEqual([401, 401])
    } finally {
      clock.thaw()
    }
  })

  it("refuses a revoked connection's token on both processes once DELETE /connections/{id} has returned", async () => {
    const { merchant, tokens } = await app.connect()
    expect(await getStore(tokens.access_token)).toEqual([200, 200])
    const connections = await app.operator("GET", `/stores/${merchant.storeIds[0]}/connections`)
    expect(connections.body.data).toHaveLength(1)
    expect((await app.operator("DELETE", `/connections/${connections.body.data[0].id}`)).status).toBe(204)
    expect(await getStore(tokens.access_token)).toEqual([401, 401])
  })

  it("refuses a departed member's connector token on both processes once the member is removed", async () => {
    const { merchant, tokens } = await app.connect()
    expect(await getStore(tokens.access_token)).toEqual([200, 200])
    expect((await app.operator("DELETE", `/companies/${merchant.companyId}/members/${merchant.personId}`)).status).toBe(204)
    expect(await getStore(tokens.access_token)).toEqual([401, 401])
  })
})
