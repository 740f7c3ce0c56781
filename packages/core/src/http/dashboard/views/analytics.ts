import type { AnalyticsPeriod } from "../../../domain/analytics/period.js"
import { ANALYTICS_PERIODS } from "../../../domain/analytics/period.js"
import type { RevenueChart } from "../../../presenters/dashboard/revenue-chart.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, type StoreContext, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"

/** The totals of the analytics summary, as read. */
export interface AnalyticsTotals {
  readonly window: string
  readonly orders: number
  readonly products: number
  /** Revenue per currency, readable (`$1,234.50`). */
  readonly revenue: ReadonlyArray<{ readonly currency: string; readonly amount: string; readonly orders: number }>
}

const chartSvg = (chart: RevenueChart, title: string): string => {
  const { plot } = chart
  const grid = chart.yTicks.map((tick) =>
    `<line class="grid" x1="${plot.left}" x2="${plot.right}" y1="${tick.y}" y2="${tick.y}"/><text x="${plot.left - 8}" y="${tick.y + 4}" text-anchor="end">${
      escapeHtml(tick.label)
    }</text>`
  ).join("")
  // The last label ends at the plot's edge instead of running past it.
  const labels = chart.xLabels.map((label, index) =>
    `<text x="${label.x}" y="${plot.bottom + 22}" text-anchor="${index === chart.xLabels.length - 1 ? "end" : "middle"}">${escapeHtml(label.label)}</text>`
  ).join("")
  const points = chart.points.map((point) =>
    `<circle class="point" cx="${point.x}" cy="${point.y}" r="4" tabindex="0" role="img" aria-label="${escapeHtml(point.label)}"><title>${
      escapeHtml(point.label)
    }</title></circle>`
  ).join("")
  return `<svg viewBox="0 0 ${chart.width} ${chart.height}" role="group" aria-labelledby="chart-title chart-summary">
<title id="chart-title">${escapeHtml(title)}</title><desc id="chart-summary">${escapeHtml(chart.summary)}</desc>
<g aria-hidden="true">${grid}${labels}<line class="axis" x1="${plot.left}" x2="${plot.right}" y1="${plot.bottom}" y2="${plot.bottom}"/>
<path class="area" d="${chart.area}"/><path class="line" d="${chart.line}"/></g>${points}</svg>`
}

/** A Store's analytics for one period: the period switch, the totals and the revenue chart. */
export const analyticsView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  period: AnalyticsPeriod,
  totals: AnalyticsTotals,
  chart: RevenueChart,
  currency: string
): string => {
  const periods = ANALYTICS_PERIODS.map((p) =>
    `<li><a href="${escapeHtml(`${paths.section(store.id, "analytics")}?period=${p}`)}"${p === period ? ` aria-current="page"` : ""}>Last ${
      p.replace("d", " days")
    }</a></li>`
  ).join("")
  const revenue = totals.revenue.length === 0
    ? `<div><dt>Revenue</dt><dd>None</dd></div>`
    : totals.revenue.map((bucket) => `<div><dt>Revenue (${escapeHtml(bucket.currency)})</dt><dd>${escapeHtml(bucket.amount)}</dd></div>`).join("")
  const title = `Revenue per day in ${currency}`
  return dashboardPage(
    { title: "Analytics", paths, viewer, store },
    `<nav aria-label="Period"><ul class="periods">${periods}</ul></nav>
<p class="muted">${escapeHtml(totals.window)} (complete UTC days).</p>
<dl class="totals"><div><dt>Orders</dt><dd>${totals.orders}</dd></div><div><dt>Products created</dt><dd>${totals.products}</dd></div>${revenue}</dl>
<figure class="panel chart" data-chart><figcaption><h2>${escapeHtml(title)}</h2></figcaption>${chartSvg(chart, title)}
<p class="chart-readout" aria-live="polite"></p><p class="muted">${escapeHtml(chart.summary)}</p></figure>`
  )
}
