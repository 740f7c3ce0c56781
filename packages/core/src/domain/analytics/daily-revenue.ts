import { MS_PER_DAY, utcDay } from "../utc-day.js"
import type { AnalyticsWindow } from "./window.js"

/** One UTC day's revenue in one currency, in minor units. */
export interface DailyRevenue {
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string
  readonly amount: number
}

/**
 * Every day of the window, oldest first, with its revenue from `rows` (days without orders are
 * 0, so a chart's x axis is the window itself and not just the days that sold).
 */
export const dailyRevenueSeries = (window: AnalyticsWindow, rows: ReadonlyArray<DailyRevenue>): ReadonlyArray<DailyRevenue> => {
  const byDay = new Map<string, number>()
  for (const row of rows) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.amount)
  const days = Math.round((window.endsBefore.getTime() - window.startsAt.getTime()) / MS_PER_DAY)
  return Array.from({ length: days }, (_, index) => {
    const day = utcDay(new Date(window.startsAt.getTime() + index * MS_PER_DAY))
    return { day, amount: byDay.get(day) ?? 0 }
  })
}
