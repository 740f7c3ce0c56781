import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { batchRows } from "../../packages/core/src/storage/batch-rows.js"
import { startCommerceApp } from "../support/commerce.js"
import { databaseVariants, type TestDatabase } from "../support/databases.js"

// A batch statement joins its rows to a table the size of the whole service (every idempotency
// key, every product); it must look each row up, never read the table through.
describe.each(databaseVariants())("a batch's rows in a statement ($name database)", (variant) => {
  let db: TestDatabase
  let app: Awaited<ReturnType<typeof startCommerceApp>>
  beforeAll(async () => {
    db = await variant.create()
    app = await startCommerceApp(db.config)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("reach a large table through its index", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    await app.query((sql) => sql`
      INSERT INTO idempotency_keys (store_id, idempotency_key, method, path, fingerprint, state, locked_until, expires_at)
      SELECT ${storeId}, 'key-' || i, 'POST', '/api/v3/orders', 'f', 'in_flight', now(), now() + interval '1 day'
      FROM generate_series(1, 20000) AS i`)
    const rows = Array.from({ length: 12 }, (_, n) => ({ store_id: storeId, idempotency_key: `key-${n * 97 + 1}`, status: 201 }))
    const plan = await app.query((sql) => sql<Record<string, string>>`
      EXPLAIN UPDATE idempotency_keys AS k SET response_status = c.status
      FROM ${batchRows(sql, rows, "store_id integer, idempotency_key text, status integer")} AS c
      WHERE k.store_id = c.store_id AND k.idempotency_key = c.idempotency_key`)
    const text = plan.map((line) => Object.values(line).join(" ")).join("\n")
    expect(text).toMatch(/Index Scan using idempotency_keys_pkey/)
    expect(text).not.toMatch(/Seq Scan on idempotency_keys/)

    const updated = await app.query((sql) => sql<{ id: string }>`
      UPDATE idempotency_keys AS k SET response_status = c.status
      FROM ${batchRows(sql, rows, "store_id integer, idempotency_key text, status integer")} AS c
      WHERE k.store_id = c.store_id AND k.idempotency_key = c.idempotency_key
      RETURNING k.idempotency_key AS id`)
    expect(updated.map((row) => row.id).sort()).toEqual(rows.map((row) => row.idempotency_key).sort())
  })
})
