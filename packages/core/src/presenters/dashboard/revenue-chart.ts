import type { DailyRevenue } from "../../domain/analytics/daily-revenue.js"
import { readableDay } from "./dates.js"
import { readableMoney } from "./money.js"

/** The drawing area of the revenue chart, in SVG user units (it scales to its container). */
export const CHART_WIDTH = 720
export const CHART_HEIGHT = 260
const LEFT = 84
const RIGHT = 16
const TOP = 16
const BOTTOM = 36
const Y_TICKS = 4
const X_LABELS = 6

/** One day on the chart: where it is drawn and how it reads. */
export interface ChartPoint {
  readonly x: number
  readonly y: number
  /** `21 Nov 2026: $120.00`, what a screen reader or the readout says of it. */
  readonly label: string
}

/** The revenue chart, laid out: everything an SVG needs and nothing it must work out. */
export interface RevenueChart {
  readonly width: number
  readonly height: number
  readonly plot: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number }
  readonly points: ReadonlyArray<ChartPoint>
  readonly line: string
  readonly area: string
  readonly yTicks: ReadonlyArray<{ readonly y: number; readonly label: string }>
  readonly xLabels: ReadonlyArray<{ readonly x: number; readonly label: string }>
  /** The whole chart in one sentence, for people who cannot see it. */
  readonly summary: string
}

// The smallest 1, 2 or 5 times a power of ten at or above `value`: an axis top that reads well.
const niceCeiling = (value: number): number => {
  if (value <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10
  return step * power
}

const round = (value: number): number => Math.round(value * 10) / 10

/** Lays out a series of daily revenue (minor units of `currency`) as a line chart. */
export const revenueChart = (series: ReadonlyArray<DailyRevenue>, currency: string): RevenueChart => {
  const plot = { left: LEFT, right: CHART_WIDTH - RIGHT, top: TOP, bottom: CHART_HEIGHT - BOTTOM }
  const top = niceCeiling(Math.max(0, ...series.map((day) => day.amount)))
  const span = Math.max(1, series.length - 1)
  const xOf = (index: number) => round(series.length === 1 ? (plot.left + plot.right) / 2 : plot.left + (index / span) * (plot.right - plot.left))
  const yOf = (amount: number) => round(plot.bottom - (amount / top) * (plot.bottom - plot.top))
  const points = series.map((day, index) => ({
    x: xOf(index),
    y: yOf(day.amount),
    label: `${readableDay(day.day)}: ${readableMoney(day.amount, currency)}`
  }))
  const line = points.map((p, index) => `${index === 0 ? "M" : "L"}${p.x} ${p.y}`).join(" ")
  const first = points[0]
  const last = points[points.length - 1]
  const area = first === undefined || last === undefined ? "" : `${line} L${last.x} ${plot.bottom} L${first.x} ${plot.bottom} Z`
  const yTicks = Array.from({ length: Y_TICKS + 1 }, (_, index) => {
    const amount = (top * index) / Y_TICKS
    return { y: yOf(amount), label: readableMoney(Math.round(amount), currency) }
  })
  const every = Math.max(1, Math.ceil(series.length / X_LABELS))
  const xLabels = series.flatMap((day, index) =>
    index % every === 0 || index === series.length - 1 ? [{ x: xOf(index), label: readableDay(day.day).replace(/ \d{4}$/, "") }] : []
  )
  const total = series.reduce((sum, day) => sum + day.amount, 0)
  const best = series.reduce<DailyRevenue | undefined>((max, day) => (max === undefined || day.amount > max.amount ? day : max), undefined)
  const summary = first === undefined || best === undefined || series[0] === undefined
    ? "No days in this period."
    : `Daily revenue from ${readableDay(series[0].day)} to ${readableDay(series[series.length - 1]?.day ?? series[0].day)}: ${
      readableMoney(total, currency)
    } in total${best.amount > 0 ? `, the best day ${readableDay(best.day)} with ${readableMoney(best.amount, currency)}` : ""}.`
  return { width: CHART_WIDTH, height: CHART_HEIGHT, plot, points, line, area, yTicks, xLabels, summary }
}
