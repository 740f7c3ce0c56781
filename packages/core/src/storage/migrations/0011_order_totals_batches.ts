import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ORDER_TOTAL_SHARDS } from "./0010_order_totals_shards.js"

/**
 * The rollup's shard by what an order is, not by how many rows its statement inserted. API order
 * writes now share statements (storage/group-commit.ts), so "a statement of many orders" no longer
 * means an import. An imported order is counted in shard 0, keeping an imported history at one row
 * per day and currency; the API orders a statement inserts are counted together in the shard of
 * their smallest id, so one statement locks one row per Store, day and currency, and concurrent
 * statements (consecutive ids) still lock different rows. An order written alone is counted
 * where migration 0010 counted it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Rows are folded in key order so concurrent writers lock rollup rows in the same order.
  yield* sql.unsafe(`
    CREATE OR REPLACE FUNCTION order_daily_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO order_daily_totals AS t (store_id, day, currency, shard, order_count, amount)
      SELECT store_id, (created_at AT TIME ZONE 'UTC')::date, currency,
        CASE WHEN source = 'import' THEN 0 ELSE statement.first_id % ${ORDER_TOTAL_SHARDS} END,
        count(*), sum(total_amount)
      FROM added, (SELECT min(id) AS first_id FROM added WHERE source <> 'import') AS statement
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (store_id, day, currency, shard) DO UPDATE
        SET order_count = t.order_count + EXCLUDED.order_count, amount = t.amount + EXCLUDED.amount;
      RETURN NULL;
    END $$`)
})
