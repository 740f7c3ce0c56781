export { MS_PER_DAY, startOfUtcDay } from "../utc-day.js"

/** Why a `YYYY-MM-DD` string is not a usable date. */
export type CalendarDateError = "invalid_format" | "invalid_date"

/**
 * Parses a strict `YYYY-MM-DD` string to midnight UTC of that day, or says why
 * it cannot: wrong shape is `invalid_format`, a day the calendar lacks
 * (2026-02-30, 2025-02-29) is `invalid_date`.
 */
export const parseCalendarDate = (text: string): Date | CalendarDateError => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return "invalid_format"
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 onto 1900-1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  // Out-of-range parts roll over (Feb 30 → Mar 2); a rolled date is not the one written.
  const rolled = date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day
  return rolled ? "invalid_date" : date
}
