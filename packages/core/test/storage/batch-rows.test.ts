import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { batchRows } from "../../src/storage/batch-rows.js"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"

// A batch statement joins its rows to a table the size of the whole service (every idempotency
// key, every product); it must look each row up, never read the table through.
describe.each(databaseVariants())("a batch's rows in a statement ($name database)", (variant) => {
  let db: TestDatabase
  let app: TestApp
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("reach a large table through its index, in one statement text for every batch size", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    await app.query((sql) => sql`
      INSERT INTO idempotency_keys (store_id, idempotency_key, method, path, fingerprint, state, locked_until, expires_at)
      SELECT ${storeId}, 'key-' || i, 'POST', '/api/v3/orders', 'f', 'in_flight', now(), now() + interval '1 day'
      FROM generate_series(1, 20000) AS i`)
    const rowsOf = (count: number) =>
      Array.from({ length: count }, (_, n) => ({ store_id: storeId, idempotency_key: `key-${n * 97 + 1}`, status: 201 }))
    const update = (sql: SqlClient.SqlClient, rows: ReturnType<typeof rowsOf>) => sql`
      UPDATE idempotency_keys AS k SET response_status = c.status
      FROM ${batchRows(sql, rows, "store_id integer, idempotency_key text, status integer")} AS c
      WHERE k.store_id = c.store_id AND k.idempotency_key = c.idempotency_key`
    const planText = (lines: ReadonlyArray<Record<string, string>>) => lines.map((line) => Object.values(line).join(" ")).join("\n")
    const rows = rowsOf(12)

    const plan = await app.query((sql) => sql<Record<string, string>>`EXPLAIN ${update(sql, rows)}`)
    expect(planText(plan)).toMatch(/Index Scan using idempotency_keys_pkey/)
    expect(planText(plan)).not.toMatch(/Seq Scan on idempotency_keys/)

    // A statement whose text changed with its batch's size would be prepared and planned again for
    // each size on each connection, and never reach the plan the server keeps for a statement it
    // runs often: its generic plan, made without the parameters' values. That plan must look up too.
    const [compiled] = await app.query((sql) =>
      Effect.succeed([{ one: update(sql, rowsOf(1)).compile(), twelve: update(sql, rows).compile() }])
    )
    const [text, params] = compiled?.twelve ?? ["", []]
    expect(compiled?.one[0]).toBe(text)
    const literal = (value: unknown) => `'${String(value).replaceAll("'", "''")}'`
    const generic = await app.query((sql) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SET LOCAL plan_cache_mode = force_generic_plan`
        yield* sql.unsafe(`PREPARE batch_update AS ${text}`)
        const lines = yield* sql.unsafe<Record<string, string>>(`EXPLAIN EXECUTE batch_update(${params.map(literal).join(", ")})`)
        yield* sql`DEALLOCATE batch_update`
        return lines
      }))
    )
    expect(planText(generic)).toMatch(/Index Scan using idempotency_keys_pkey/)
    expect(planText(generic)).not.toMatch(/Seq Scan on idempotency_keys/)

    const updated = await app.query((sql) => sql<{ id: string }>`${update(sql, rows)} RETURNING k.idempotency_key AS id`)
    expect(updated.map((row) => row.id).sort()).toEqual(rows.map((row) => row.idempotency_key).sort())
  })

  it("carry a document as JSON: JSON.stringify's very text for ::text, the document for ::jsonb, nothing escaped twice", async () => {
    // Escapes, non-ASCII letters, a number's spelling, a nested document: what a signed webhook body
    // must keep byte for byte, as JSON.stringify writes it for the value alone.
    const document = { b: [1, 2.5, 1e21], a: "\u00e9 é \"q\" \u2028", n: null, nested: { z: "\n", y: [] } }
    const rows = [
      { n: 0, doc: document, plain: "x \"y\" é", missing: undefined, at: new Date(Date.UTC(2026, 0, 2)) },
      { n: 1, doc: null, plain: null, at: null }
    ]
    const read = await app.query((sql) => sql<{ n: number; text: string | null; doc: unknown; plain: string | null; missing: string | null; at: string | null }>`
      SELECT r.n, r.doc::text AS text, r.doc::jsonb AS doc, r.plain, r.missing, r.at::text AS at
      FROM ${batchRows(sql, rows, "n integer, doc json, plain text, missing text, at timestamptz")} AS r ORDER BY r.n`)
    expect(read.map((row) => ({ ...row, doc: typeof row.doc === "string" ? JSON.parse(row.doc) : row.doc }))).toEqual([
      { n: 0, text: JSON.stringify(document), doc: document, plain: "x \"y\" é", missing: null, at: "2026-01-02 00:00:00+00" },
      { n: 1, text: null, doc: null, plain: null, missing: null, at: null }
    ])
  })
})
