import { Result } from "effect"
import type { FieldError } from "../input/field-error.js"
import { MS_PER_DAY, startOfUtcDay } from "../utc-day.js"
import { parseCalendarDate } from "./calendar-date.js"
import type { AnalyticsPeriod } from "./period.js"
import { ANALYTICS_PERIODS, DEFAULT_ANALYTICS_PERIOD, isAnalyticsPeriod, periodDays } from "./period.js"

/** Query parameters of `GET /api/v3/analytics/summary`, as received. */
export interface AnalyticsQueryInput {
  readonly period?: string | null | undefined
  readonly end_date?: string | null | undefined
}

/** The half-open window `[startsAt, endsBefore)` of complete UTC days the summary covers. */
export interface AnalyticsWindow {
  readonly period: AnalyticsPeriod
  readonly startsAt: Date
  readonly endsBefore: Date
}

const parsePeriod = (raw: string | null | undefined): AnalyticsPeriod | FieldError => {
  if (raw === null || raw === undefined) return DEFAULT_ANALYTICS_PERIOD
  if (isAnalyticsPeriod(raw)) return raw
  return {
    parameter: "period",
    code: "unsupported_value",
    detail: `period must be one of ${ANALYTICS_PERIODS.join(", ")}`,
    allowed_values: ANALYTICS_PERIODS
  }
}

// Returns the exclusive end of the window: midnight UTC after end_date.
const parseEndDate = (raw: string | null | undefined, now: Date): Date | FieldError => {
  const today = startOfUtcDay(now)
  if (raw === null || raw === undefined) return today
  const parsed = parseCalendarDate(raw)
  if (parsed === "invalid_format") {
    return { parameter: "end_date", code: "invalid_format", detail: "end_date must be a date in the form YYYY-MM-DD" }
  }
  if (parsed === "invalid_date") {
    return { parameter: "end_date", code: "invalid_date", detail: "end_date is not a real calendar date" }
  }
  if (parsed.getTime() >= today.getTime()) {
    return {
      parameter: "end_date",
      code: "out_of_range",
      detail: "end_date must be before the current UTC date, so that every day counted is complete"
    }
  }
  return new Date(parsed.getTime() + MS_PER_DAY)
}

/**
 * Resolves the analytics query against `now`: `period` defaults to 30d,
 * `end_date` to yesterday (UTC) and must be strictly before today (UTC).
 * Every fault is reported at once, each naming its `parameter`.
 */
export const parseAnalyticsQuery = (
  query: AnalyticsQueryInput,
  now: Date
): Result.Result<AnalyticsWindow, ReadonlyArray<FieldError>> => {
  const period = parsePeriod(query.period)
  const endsBefore = parseEndDate(query.end_date, now)
  if (typeof period !== "string" || !(endsBefore instanceof Date)) {
    const faults: Array<FieldError> = []
    if (typeof period !== "string") faults.push(period)
    if (!(endsBefore instanceof Date)) faults.push(endsBefore)
    return Result.fail(faults)
  }
  return Result.succeed({
    period,
    startsAt: new Date(endsBefore.getTime() - periodDays(period) * MS_PER_DAY),
    endsBefore
  })
}
