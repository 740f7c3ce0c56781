import { Clock, Effect, Result } from "effect"
import type { HttpServerRequest } from "effect/http"
import { parseAnalyticsQuery } from "../../domain/analytics/window.js"
import { InvalidParameter } from "../../domain/errors.js"
import { readableDay } from "../../presenters/dashboard/dates.js"
import { readableMoney } from "../../presenters/dashboard/money.js"
import { revenueChart } from "../../presenters/dashboard/revenue-chart.js"
import { Analytics } from "../../services/commerce/analytics.js"
import { MS_PER_DAY } from "../../domain/utc-day.js"
import { htmlPage } from "./respond.js"
import { openStore } from "./session.js"
import { analyticsView } from "./views/analytics.js"

/**
 * GET /dashboard/stores/:store_id/analytics?period=…: the summary `GET /api/v3/analytics/summary`
 * answers for the same period (the same service, the same window), and revenue per day as a chart.
 */
export const showAnalytics = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "analytics")
    const period = new URL(request.url, "http://dashboard.invalid").searchParams.get("period")
    const window = parseAnalyticsQuery({ period }, new Date(yield* Clock.currentTimeMillis))
    if (Result.isFailure(window)) return yield* new InvalidParameter({ errors: window.failure })
    const analytics = yield* Analytics
    const summary = yield* analytics.summary(store.id, window.success)
    const series = yield* analytics.dailyRevenue(store.id, window.success, store.currency)
    const lastDay = new Date(window.success.endsBefore.getTime() - MS_PER_DAY)
    const totals = {
      window: `${readableDay(window.success.startsAt)} to ${readableDay(lastDay)}`,
      orders: summary.order_count,
      products: summary.product_count,
      revenue: summary.revenue.map((bucket) => ({
        currency: bucket.currency ?? "unrecognised codes",
        amount: readableMoney(bucket.amount, bucket.currency),
        orders: bucket.order_count
      }))
    }
    return htmlPage(analyticsView(paths, viewer, context, window.success.period, totals, revenueChart(series, store.currency), store.currency))
  })
