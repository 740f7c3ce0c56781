const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const

const pad = (value: number): string => String(value).padStart(2, "0")

/** An instant as people read it in the dashboard: `21 Nov 2026, 14:03 UTC` (UTC, like every day the service counts). */
export const readableInstant = (instant: Date | string): string => {
  const date = typeof instant === "string" ? new Date(instant) : instant
  return `${readableDay(date)}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`
}

/** A UTC day as people read it: `21 Nov 2026`. */
export const readableDay = (instant: Date | string): string => {
  const date = typeof instant === "string" ? new Date(instant) : instant
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

/** An optional instant, or what to say when there is none. */
export const readableOrNever = (instant: Date | string | null, never = "Never"): string =>
  instant === null ? never : readableInstant(instant)
