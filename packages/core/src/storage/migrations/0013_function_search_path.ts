import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The rollup's trigger functions name their table without a schema, and a function resolves
 * names through the search_path of whoever calls it: an order deleted from a session whose path
 * starts elsewhere (an administrator's psql, a host's job) would update that schema's
 * `order_daily_totals`, or fail. Each function now carries the search_path it was migrated with,
 * which is signcraft's schema alone (storage/postgres.ts, storage/embedded.ts).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER FUNCTION order_daily_totals_add() SET search_path FROM CURRENT`
  yield* sql`ALTER FUNCTION order_daily_totals_remove() SET search_path FROM CURRENT`
})
