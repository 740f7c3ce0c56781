import { formatTimestampV3 } from "../timestamp.js"
import type { RevenueBucket } from "./revenue.js"
import type { AnalyticsPeriod } from "./period.js"
import type { AnalyticsWindow } from "./window.js"

/** The `data` of the analytics operation. */
export interface AnalyticsSummary {
  readonly object: "analytics_summary"
  readonly period: AnalyticsPeriod
  readonly starts_at: string
  readonly ends_before: string
  readonly order_count: number
  readonly product_count: number
  readonly revenue: ReadonlyArray<RevenueBucket>
}

/** Assembles the `analytics_summary` resource from a window and its counted totals. */
export const toAnalyticsSummary = (
  window: AnalyticsWindow,
  totals: { readonly orderCount: number; readonly productCount: number; readonly revenue: ReadonlyArray<RevenueBucket> }
): AnalyticsSummary => ({
  object: "analytics_summary",
  period: window.period,
  starts_at: formatTimestampV3(window.startsAt),
  ends_before: formatTimestampV3(window.endsBefore),
  order_count: totals.orderCount,
  product_count: totals.productCount,
  revenue: totals.revenue
})
