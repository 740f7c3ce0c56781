import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { randomBytes } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { STOREFRONT_STORED_BYTES, STOREFRONT_WRITE_BYTES } from "../../src/http/api/byte-budget.js"
import { FINISHED_DESIGN_CAPS } from "../../src/http/api/storefront-designs.js"
import { FORM_SUBMISSION_CAPS } from "../../src/http/api/storefront-forms.js"
import { clientAddressContext } from "../../src/http/request-info.js"
import { createCustomiser, startApp } from "@signcraft/test-kit"

// docs/input-handling.md: anonymous storefront writes are stored and fan out, so their size and their number
// per Store are capped, not only their number per address.
describe("storefront limits", () => {
  const app = startApp({ _tag: "Embedded", location: "memory" }, { storefrontWritesPerStorePerMinute: 3, rateLimitPerIpPerMinute: 10_000 })
  afterAll(() => app.dispose())

  const response = (value = "yes") => ({ field_id: "f1", name: "Question", input_type: "text", value })
  const submit = (customiserId: number, responses: ReadonlyArray<unknown>) =>
    app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { responses } })

  it("refuses oversized form submissions with a 422 naming the field", async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    const tooMany = await submit(customiser.id, Array.from({ length: 101 }, () => response()))
    expect(tooMany.status).toBe(422)
    expect(tooMany.body.errors[0].pointer).toBe("/responses")
    const tooLong = await submit(customiser.id, [response("x".repeat(10_001))])
    expect(tooLong.status).toBe(422)
    expect(tooLong.body.errors[0].pointer).toBe("/responses/0/value")
    const design = await app.call("POST", `/storefront/v1/customisers/${customiser.id}/designs`, {
      body: { integration_id: 1, title: "t".repeat(501), price: 100 }
    })
    expect(design.status).toBe(422)
    expect(design.body.errors.map((e: { pointer: string }) => e.pointer)).toContain("/title")
  })

  it("holds each Store to its storefront quota whatever the addresses, and leaves other Stores alone", async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    for (let i = 0; i < 3; i++) expect((await submit(customiser.id, [response()])).status).toBe(201)
    const held = await submit(customiser.id, [response()])
    expect(held.status).toBe(429)
    expect(held.body.code).toBe("rate_limited")
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0)
    const other = await app.seedStore()
    const otherCustomiser = await createCustomiser(app, other.storeId)
    expect((await submit(otherCustomiser.id, [response()])).status).toBe(201)
  })
})

// A submission is held to a byte budget, each address to a quota of its own, and what an accepted
// submission adds to the database is bounded by that budget.
describe("storefront byte budget and per-address quota", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "signcraft-storefront-"))
  const app = startApp(
    { _tag: "Embedded", location: { dataDir } },
    { storefrontWritesPerStorePerMinute: 10_000, storefrontWritesPerAddressPerMinute: 4, rateLimitPerIpPerMinute: 10_000 }
  )
  afterAll(async () => {
    await app.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const submitFrom = async (ip: string, customiserId: number, responses: ReadonlyArray<unknown>) => {
    const res = await app.handler(
      new Request(`http://127.0.0.1/storefront/v1/customisers/${customiserId}/form-submissions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ responses })
      }),
      clientAddressContext(ip)
    )
    return { status: res.status, body: await res.json() }
  }
  // Random text (nothing for the database to compress) whose JSON takes `bytes` exactly.
  const responsesOf = (bytes: number) => {
    const responses: Array<{ field_id: string; name: string; input_type: string; value: string }> = []
    const size = () => Buffer.byteLength(JSON.stringify(responses))
    for (let n = 0; ; n++) {
      const entry = { field_id: `f${n}`, name: "Q", input_type: "text", value: "" }
      responses.push(entry)
      const room = bytes - size()
      if (room <= FORM_SUBMISSION_CAPS.value) {
        entry.value = randomBytes(room).toString("hex").slice(0, room)
        return responses
      }
      entry.value = randomBytes(FORM_SUBMISSION_CAPS.value).toString("hex").slice(0, FORM_SUBMISSION_CAPS.value)
    }
  }
  const dirBytes = (dir: string): number =>
    readdirSync(dir).reduce((sum, name) => {
      const path = join(dir, name)
      const stat = statSync(path)
      return sum + (stat.isDirectory() ? dirBytes(path) : stat.size)
    }, 0)
  const tableBytes = () =>
    app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ bytes: string }>`
        SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
        WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace`
      return Number(row?.bytes ?? 0)
    }))

  it(`accepts a submission of exactly ${STOREFRONT_WRITE_BYTES} bytes and refuses one byte more, and a design over the budget`, async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    const exact = responsesOf(STOREFRONT_WRITE_BYTES)
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(STOREFRONT_WRITE_BYTES)
    expect((await submitFrom("198.51.100.1", customiser.id, exact)).status).toBe(201)
    const over = await submitFrom("198.51.100.2", customiser.id, responsesOf(STOREFRONT_WRITE_BYTES + 1))
    expect(over.status).toBe(422)
    expect(over.body.errors[0].pointer).toBe("/responses")
    const design = await app.call("POST", `/storefront/v1/customisers/${customiser.id}/designs`, {
      body: {
        integration_id: 1,
        title: "Big",
        price: 100,
        description: "d".repeat(FINISHED_DESIGN_CAPS.description),
        customisations: Array.from({ length: 30 }, (_, n) => ({ key: `k${n}`, label: "L", value: "v".repeat(FINISHED_DESIGN_CAPS.value) }))
      }
    })
    expect(design.status).toBe(422)
    expect(design.body.code).toBe("validation_failed")
  })

  it("holds each address to its own storefront quota, beside the Store's", async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    const one = [{ field_id: "f", name: "Q", input_type: "text", value: "yes" }]
    for (let i = 0; i < 4; i++) expect((await submitFrom("2001:db8:40::1", customiser.id, one)).status).toBe(201)
    const held = await submitFrom("2001:db8:40::2", customiser.id, one)
    expect(held.status).toBe(429)
    expect(held.body.code).toBe("rate_limited")
    expect((await submitFrom("2001:db8:41::1", customiser.id, one)).status).toBe(201)
  })

  it("grows the data directory and the rows by at most the budget per accepted submission, storing no event without a subscriber", async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    const accepted = 24
    // A first one, so the tables and their files already exist.
    expect((await submitFrom("203.0.113.200", customiser.id, responsesOf(STOREFRONT_WRITE_BYTES))).status).toBe(201)
    await app.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CHECKPOINT`))
    const before = { dir: dirBytes(dataDir), rows: await tableBytes() }
    for (let i = 0; i < accepted; i++) {
      expect((await submitFrom(`203.0.113.${i + 1}`, customiser.id, responsesOf(STOREFRONT_WRITE_BYTES))).status).toBe(201)
    }
    await app.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CHECKPOINT`))
    const after = { dir: dirBytes(dataDir), rows: await tableBytes() }
    const budget = accepted * STOREFRONT_STORED_BYTES
    expect(after.rows - before.rows).toBeLessThanOrEqual(budget)
    expect(after.dir - before.dir).toBeLessThanOrEqual(budget)
    const events = await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE store_id = ${storeId}`
    }))
    expect(events[0]?.n).toBe(0)
  })
})
