import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Pricing documents keep the member order their writer used. `jsonb` reorders object keys
 * (shortest first), which made documents read back in an order nobody wrote; `json` keeps
 * the text as written. Nothing queries inside the document, so nothing is lost.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE customisers ALTER COLUMN pricing TYPE json USING pricing::json`
})
