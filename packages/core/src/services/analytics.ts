import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type RevenueRow, summariseRevenue } from "../domain/analytics/revenue.js"
import { type AnalyticsSummary, toAnalyticsSummary } from "../domain/analytics/summary.js"
import type { AnalyticsWindow } from "../domain/analytics/window.js"

const isoDay = (date: Date): string => date.toISOString().slice(0, 10)

/**
 * The `analytics_summary` of a Store over a window of whole UTC days. Revenue comes from the
 * per-day rollup (`order_daily_totals`): because the window starts and ends at UTC midnights,
 * `day >= first day AND day < day after end_date` selects exactly the orders of
 * `[starts_at, ends_before)`, at a cost bounded by days × currencies instead of orders. Products
 * are counted over the partial index of modern products; legacy product-cache rows are not in it.
 * Nothing about customers or providers is read.
 */
export class Analytics extends Context.Service<Analytics, {
  readonly summary: (storeId: number, window: AnalyticsWindow) => Effect.Effect<AnalyticsSummary>
}>()("signcraft/Analytics") {
  static readonly layer = Layer.effect(
    Analytics,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return Analytics.of({
        summary: (storeId, window) =>
          Effect.gen(function*() {
            const revenue = yield* sql<RevenueRow>`
              SELECT currency, sum(amount) AS amount, sum(order_count) AS order_count
              FROM order_daily_totals
              WHERE store_id = ${storeId}
                AND day >= ${isoDay(window.startsAt)}::date AND day < ${isoDay(window.endsBefore)}::date
              GROUP BY currency
              HAVING sum(order_count) > 0`
            const products = yield* sql<{ count: number | bigint | string }>`
              SELECT count(*) AS count FROM products
              WHERE store_id = ${storeId} AND kind <> 'legacy'
                AND created_at >= ${window.startsAt} AND created_at < ${window.endsBefore}`
            const buckets = summariseRevenue(revenue)
            return toAnalyticsSummary(window, {
              orderCount: buckets.reduce((sum, bucket) => sum + bucket.order_count, 0),
              productCount: Number(products[0]?.count ?? 0),
              revenue: buckets
            })
          }).pipe(Effect.orDie)
      })
    })
  )
}
