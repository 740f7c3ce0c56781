import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * When each API key and each connector grant was last used, for the merchant dashboard. Both are
 * written at most once a minute per key or grant (`LAST_USED_RESOLUTION_SECONDS`), so the hot path
 * gains no write per request. Keys and grants used before this column existed have none.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`
  yield* sql`ALTER TABLE oauth_grants ADD COLUMN last_used_at timestamptz`
})
