import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type DailyRevenue, dailyRevenueSeries } from "../../domain/analytics/daily-revenue.js"
import { summariseRevenue } from "../../domain/analytics/revenue.js"
import { type AnalyticsSummary, toAnalyticsSummary } from "../../domain/analytics/summary.js"
import type { AnalyticsWindow } from "../../domain/analytics/window.js"
import { utcDay } from "../../domain/utc-day.js"
import { decodeRows, decodeSingleRow, RowNumber } from "../../storage/rows.js"
import { snakeStruct } from "../../storage/table.js"

// Sums stay as the driver gives them: `summariseRevenue` refuses any that is not an exact integer.
const SqlInteger = Schema.Union([Schema.Number, Schema.String, Schema.BigInt])
const RevenueRow = snakeStruct({ currency: Schema.NullOr(Schema.String), amount: SqlInteger, orderCount: SqlInteger })
const CountRow = Schema.Struct({ count: RowNumber })
const DayRow = Schema.Struct({ day: Schema.String, amount: RowNumber })

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
  /** Revenue in one currency for every day of the window (0 on days without orders), oldest first. */
  readonly dailyRevenue: (storeId: number, window: AnalyticsWindow, currency: string) => Effect.Effect<ReadonlyArray<DailyRevenue>>
}>()("signcraft/Analytics") {
  static readonly layer = Layer.effect(
    Analytics,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return Analytics.of({
        summary: Effect.fn("Analytics.summary")(function*(storeId, window) {
            const revenue = yield* sql`
              SELECT currency, sum(amount) AS amount, sum(order_count) AS order_count
              FROM order_daily_totals
              WHERE store_id = ${storeId}
                AND day >= ${utcDay(window.startsAt)}::date AND day < ${utcDay(window.endsBefore)}::date
              GROUP BY currency
              HAVING sum(order_count) > 0`.pipe(Effect.flatMap(decodeRows(RevenueRow)))
            const products = yield* sql`
              SELECT count(*) AS count FROM products
              WHERE store_id = ${storeId} AND kind <> 'legacy'
                AND created_at >= ${window.startsAt} AND created_at < ${window.endsBefore}`.pipe(
                Effect.flatMap(decodeSingleRow(CountRow))
              )
            const buckets = summariseRevenue(revenue)
            return toAnalyticsSummary(window, {
              orderCount: buckets.reduce((sum, bucket) => sum + bucket.order_count, 0),
              productCount: products.count,
              revenue: buckets
            })
          }, Effect.orDie),
        dailyRevenue: (storeId, window, currency) =>
          sql`
            SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(amount) AS amount
            FROM order_daily_totals
            WHERE store_id = ${storeId} AND currency = ${currency}
              AND day >= ${utcDay(window.startsAt)}::date AND day < ${utcDay(window.endsBefore)}::date
            GROUP BY day`.pipe(
            Effect.flatMap(decodeRows(DayRow)),
            Effect.map((rows) => dailyRevenueSeries(window, rows)),
            Effect.orDie
          )
      })
    })
  )
}
