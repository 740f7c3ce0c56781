import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, type TestDatabase } from "@signcraft/test-kit"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

// Registrations from many addresses each pass the per-address quota: a global cap on clients that
// never obtained a token keeps the table bounded, dropping the oldest unused ones first.
describe("the cap on unused registered clients", () => {
  const cap = 5
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    app = startOAuthApp(db.config, { unusedClientCap: cap, registrationLimitPerHour: 1000, registrationLimitPerDay: 1000 })
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const register = async (n: number) => {
    const res = await app.register({ client_name: `Client ${n}`, redirect_uris: ["http://127.0.0.1:9/callback"] })
    expect(res.status).toBe(201)
    return res.body.client_id as string
  }
  const stored = () =>
    app.runSql(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ id: string }>`SELECT client_id AS id FROM oauth_clients`
      return rows.map((row) => row.id)
    }))

  it("keeps at most the cap of unused clients, drops the oldest first, and never a client that obtained a token", async () => {
    const used = await register(0)
    await app.runSql(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE oauth_clients SET obtained_token = true WHERE client_id = ${used}`))
    const unused: Array<string> = []
    for (let n = 1; n <= cap + 3; n++) unused.push(await register(n))
    const left = await stored()
    expect(left).toContain(used)
    expect(unused.filter((id) => left.includes(id))).toEqual(unused.slice(-cap))
    expect(left).toHaveLength(cap + 1)
  })
})
