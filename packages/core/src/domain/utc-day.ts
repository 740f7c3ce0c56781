/**
 * The UTC-day rule. Analytics windows, their `end_date` and "today", and the per-day order
 * rollup all count whole days in UTC (analytics covers complete UTC days, docs/commerce.md),
 * so every day boundary is computed here.
 */

/** Milliseconds in one UTC day; UTC has no daylight-saving shifts. */
export const MS_PER_DAY = 86_400_000

/** Midnight UTC that starts the UTC calendar day of an instant (instants before 1970 included). */
export const startOfUtcDay = (instant: Date): Date => {
  const ms = instant.getTime()
  return new Date(ms - (((ms % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY))
}

/** The UTC calendar day of an instant as `YYYY-MM-DD`, the form a SQL `date` is bound in. */
export const utcDay = (instant: Date): string => startOfUtcDay(instant).toISOString().slice(0, 10)
