/**
 * Wire timestamps. v2 prints UTC with exactly six fractional digits (`2026-07-22T10:11:12.123000Z`);
 * v3 prints UTC with exactly three (`2026-07-22T10:11:12.123Z`, JavaScript's own ISO form). String
 * inputs keep their own fractional digits up to the output precision, so microseconds stored by the
 * database survive into v2 output.
 */

const ISO_8601 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:[.,](\d+))?([Zz]|[+-]\d{2}:?\d{2})$/

interface Instant {
  /** `YYYY-MM-DDTHH:MM:SS` in UTC. */
  readonly seconds: string
  /** Fractional-second digits as given, possibly empty. */
  readonly fraction: string
}

const normaliseOffset = (offset: string): string =>
  offset === "Z" || offset === "z" ? "Z" : offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset

const parseInstant = (value: string): Instant | undefined => {
  const match = ISO_8601.exec(value)
  if (match === null) return undefined
  const [, date, time, fraction = "", offset = "Z"] = match
  const epochMs = Date.parse(`${date}T${time}${normaliseOffset(offset)}`)
  if (Number.isNaN(epochMs)) return undefined
  return { seconds: new Date(epochMs).toISOString().slice(0, 19), fraction }
}

const instantOfDate = (date: Date): Instant => {
  if (Number.isNaN(date.getTime())) throw new RangeError("Cannot format an invalid Date as a timestamp")
  const iso = date.toISOString()
  return { seconds: iso.slice(0, 19), fraction: iso.slice(20, 23) }
}

const render = (instant: Instant, digits: number): string =>
  `${instant.seconds}.${instant.fraction.padEnd(digits, "0").slice(0, digits)}Z`

const format = (value: Date | string, digits: number): string => {
  if (typeof value !== "string") return render(instantOfDate(value), digits)
  const instant = parseInstant(value)
  // An unparseable stored string is shown as stored: reads must not fail on old data.
  return instant === undefined ? value : render(instant, digits)
}

/**
 * v2 timestamp: UTC, microseconds, `Z`. An unparseable string is returned unchanged; an invalid
 * Date is a programming error and throws RangeError.
 */
export const formatTimestampV2 = (value: Date | string): string => format(value, 6)

/** v3 timestamp: UTC, milliseconds, `Z`. Same input rules as {@link formatTimestampV2}. */
export const formatTimestampV3 = (value: Date | string): string => format(value, 3)
