import { Clock, Effect, Result, Schema } from "effect"
import { AnalyticsSummaryV3 } from "../../domain/analytics/summary-view.js"
import { parseAnalyticsQuery } from "../../domain/analytics/window.js"
import { InvalidParameter } from "../../domain/errors.js"
import { Analytics } from "../../services/commerce/analytics.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"

/** `get_analytics_summary`: the same summary as `GET /api/v3/analytics/summary`. */
export const analyticsSummaryTool = defineTool({
  name: "get_analytics_summary",
  description:
    "Order count, modern product count and revenue per native currency over complete UTC days: period 7d, 30d (default), 90d or 365d, ending on end_date (YYYY-MM-DD, before today; default yesterday).",
  scopes: ["analytics:read"],
  input: Schema.Struct({ period: Schema.optionalKey(Schema.String), end_date: Schema.optionalKey(Schema.String) }),
  output: AnalyticsSummaryV3,
  hints: READ_ONLY,
  run: Effect.fn("tool.get_analytics_summary")(function*(input, principal) {
      const now = yield* Clock.currentTimeMillis
      const window = parseAnalyticsQuery(input, new Date(now))
      if (Result.isFailure(window)) return yield* new InvalidParameter({ errors: window.failure })
      return yield* (yield* Analytics).summary(principal.storeId, window.success)
    })
})
