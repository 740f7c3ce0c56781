import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

// The same issuer and database behind two agent endpoints: the first instance serves it at
// {base_url}/mcp, the twin at an origin of its own. Each request checks that the token is bound
// to the endpoint it reaches, both by its stored binding and by its audience (RFC 8707:
// a token is for the resource it was issued for).
const OTHER_AGENT = "http://127.0.0.1:9931"

describe.each(databaseVariants())("request-time resource binding of connector tokens ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config, {}, { twin: { mcpUrl: OTHER_AGENT } })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const getStore = { name: "get_store", arguments: {} }
  const expectRefused = (res: { status: number; headers: Headers }) => {
    expect(res.status).toBe(401)
    expect(res.headers.get("www-authenticate")).toContain("resource_metadata=")
  }

  it("refuses a token at an agent endpoint other than the one it is bound to", async () => {
    const { tokens } = await app.connect()
    expect((await app.mcp(tokens.access_token, "tools/call", getStore)).status).toBe(200)
    expectRefused(await app.twinMcp(tokens.access_token, "tools/call", getStore))
  })

  it("checks the stored binding and the token's audience each on its own", async () => {
    const { client, tokens } = await app.connect()
    // The stored binding now names the other endpoint while the signed audience still names the first.
    await app.runSql(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE oauth_access_tokens SET resource = ${OTHER_AGENT} WHERE client_id = ${client.clientId}`
    }))
    expectRefused(await app.mcp(tokens.access_token, "tools/call", getStore))
    expectRefused(await app.twinMcp(tokens.access_token, "tools/call", getStore))
  })
})
