import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Which process claimed a key that is in flight (`storage/claim-owner.ts`), so that a retry after
 * that process died takes the key over at once instead of waiting out the claim's lease. Keys
 * claimed before this column existed have none, and keep the lease.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN claimed_by text`
})
