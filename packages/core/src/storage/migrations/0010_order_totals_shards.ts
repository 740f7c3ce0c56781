import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** How many rows share one Store's orders of one day and currency. */
export const ORDER_TOTAL_SHARDS = 16

/**
 * The daily rollup without a hot row (docs/group-commit.md). With one row per Store, day and currency, every
 * order of a Store locked the same row from its write until its commit, so a Store's concurrent
 * order writes queued behind each other's commits. Now an order written alone (the API's order
 * write) is counted in one of {@link ORDER_TOTAL_SHARDS} rows, chosen by its id, so concurrent
 * writers (consecutive ids) lock different rows; a statement that inserts many orders (an
 * import) counts them in shard 0, keeping a bulk history at one row per day and currency. A
 * summary sums the shards, so where an order is counted never changes a total.
 *
 * Removal is an addition of negated amounts to the removed order's own shard, so it needs no row
 * to exist there: the rows written before this migration, and an import's, sit in shard 0, and an
 * order counted there and removed later leaves +1 in shard 0 and -1 in its shard, which sum to
 * nothing.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE order_daily_totals ADD COLUMN shard smallint NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE order_daily_totals DROP CONSTRAINT order_daily_totals_pkey`
  yield* sql`ALTER TABLE order_daily_totals ADD PRIMARY KEY (store_id, day, currency, shard)`
  // Rows are folded in key order so concurrent writers lock rollup rows in the same order.
  yield* sql.unsafe(`
    CREATE OR REPLACE FUNCTION order_daily_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO order_daily_totals AS t (store_id, day, currency, shard, order_count, amount)
      SELECT store_id, (created_at AT TIME ZONE 'UTC')::date, currency,
        CASE WHEN alone THEN id % ${ORDER_TOTAL_SHARDS} ELSE 0 END, count(*), sum(total_amount)
      FROM added, (SELECT count(*) = 1 AS alone FROM added) AS statement
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (store_id, day, currency, shard) DO UPDATE
        SET order_count = t.order_count + EXCLUDED.order_count, amount = t.amount + EXCLUDED.amount;
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE OR REPLACE FUNCTION order_daily_totals_remove() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO order_daily_totals AS t (store_id, day, currency, shard, order_count, amount)
      SELECT store_id, (created_at AT TIME ZONE 'UTC')::date, currency, id % ${ORDER_TOTAL_SHARDS}, -count(*), -sum(total_amount)
      FROM removed GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (store_id, day, currency, shard) DO UPDATE
        SET order_count = t.order_count + EXCLUDED.order_count, amount = t.amount + EXCLUDED.amount;
      RETURN NULL;
    END $$`)
})
