import { Deferred, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { IdempotencyStore } from "../../src/services/requests/idempotency.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"

// Batched writes (storage/group-commit.ts) must not mix callers' transactions: a caller inside
// a transaction writes its own row in it, and no other caller's row commits or rolls back with it.
describe.each(databaseVariants())("group commit and transactions ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("writes a caller's row in its own transaction, and another caller's outside it", async () => {
    const { storeId } = await app.seedStore()
    const request = (key: string) => ({ storeId, key, method: "POST", path: "/api/v3/orders", fingerprint: "f" })
    const kept = await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const keys = yield* IdempotencyStore
      const begun = yield* Deferred.make<void>()
      // Rolled back: its claim must go with it.
      const inside = Effect.gen(function*() {
        yield* Deferred.succeed(begun, undefined)
        yield* keys.claim(request("inside"))
        return yield* Effect.fail("roll back")
      }).pipe(sql.withTransaction, Effect.ignore)
      // Claimed while the other caller's claim is being batched: it must stay.
      const outside = Effect.andThen(Deferred.await(begun), keys.claim(request("outside")))
      yield* Effect.all([inside, outside], { concurrency: "unbounded" })
      return yield* sql<{ key: string }>`
        SELECT idempotency_key AS key FROM idempotency_keys WHERE store_id = ${storeId} ORDER BY 1`
    }))
    expect(kept.map((row) => row.key)).toEqual(["outside"])
  })
})
