import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, OPERATOR_TOKEN, type TestDatabase } from "@signcraft/test-kit"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"
import { runCheck } from "../../src/commands/check.js"
import { runMigrateUsage } from "../../src/commands/migrate-usage.js"
import { capture } from "./support.js"

describe.each(databaseVariants())("signcraft check and migrate usage ($name database)", (variant) => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  beforeAll(async () => {
    db = await variant.create()
    server = await startLoopbackServer(db.config)
  })
  afterAll(async () => {
    await server?.dispose()
    await db?.cleanup()
  })

  it("check prints the Store's id, platform and scopes, as text or JSON", async () => {
    const seed = await server.seedStore({ scopes: ["store:read", "orders:write"] }, { platform: "shopify" })
    const text = capture({ SIGNCRAFT_API_KEY: seed.key })
    expect(await runCheck({ baseUrl: server.url, json: false }, text.context)).toBe(0)
    expect(text.out).toEqual([`id: ${seed.storeId}`, "platform: shopify", "scopes: store:read orders:write"])
    const json = capture({ SIGNCRAFT_API_KEY: seed.key })
    expect(await runCheck({ baseUrl: server.url, json: true }, json.context)).toBe(0)
    expect(json.out.map((line) => JSON.parse(line))).toEqual([{ id: seed.storeId, platform: "shopify", scopes: ["store:read", "orders:write"] }])
    expect(json.err).toEqual([])
  })

  it("check exits 1 with the problem on stderr when the key is refused or missing", async () => {
    const refused = capture({ SIGNCRAFT_API_KEY: "sk_test_00000000000000000000000000000000" })
    expect(await runCheck({ baseUrl: server.url, json: false }, refused.context)).toBe(1)
    expect(refused.out).toEqual([])
    expect(refused.err.join("\n")).toMatch(/401 invalid_api_key: .* \(req_/)
    const missing = capture({})
    expect(await runCheck({ baseUrl: server.url, json: false }, missing.context)).toBe(1)
    expect(missing.err).toEqual(["SIGNCRAFT_API_KEY is not set"])
  })

  it("migrate usage lists the deprecated operations each key still calls, with counts and last use", async () => {
    const seed = await server.seedStore("wildcard")
    for (let i = 0; i < 2; i++) expect((await server.call("GET", "/api/v2/customisers", { key: seed.key })).status).toBe(200)
    const json = capture({ OPERATOR_TOKEN })
    expect(await runMigrateUsage({ baseUrl: server.url, storeId: String(seed.storeId), json: true }, json.context)).toBe(0)
    const rows = json.out.map((line) => JSON.parse(line))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ api_key_id: seed.keyId, count: 2 })
    expect(rows[0].operation).toMatch(/customisers/)
    expect(Number.isNaN(Date.parse(rows[0].last_seen_at))).toBe(false)
    const text = capture({ OPERATOR_TOKEN })
    expect(await runMigrateUsage({ baseUrl: server.url, storeId: String(seed.storeId), json: false }, text.context)).toBe(0)
    expect(text.out).toEqual([`key ${seed.keyId}\t${rows[0].operation}\t2\t${rows[0].last_seen_at}`])
    const wrongToken = capture({ OPERATOR_TOKEN: "nope" })
    expect(await runMigrateUsage({ baseUrl: server.url, storeId: String(seed.storeId), json: false }, wrongToken.context)).toBe(1)
    expect(wrongToken.err.join("\n")).toMatch(/401/)
  })
})
