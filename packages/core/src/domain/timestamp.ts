import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"

/**
 * The one timestamp codec. Timestamps reach the service as Dates or as text (ISO 8601 or
 * PostgreSQL's `2026-07-22 10:11:12.123456+00`, from a row or a stored document) and leave it in
 * two wire forms: v2 prints UTC with exactly six fractional digits
 * (`2026-07-22T10:11:12.123000Z`); v3 prints UTC with exactly three (`2026-07-22T10:11:12.123Z`,
 * JavaScript's own ISO form). String inputs keep their own fractional digits up to the output
 * precision, so microseconds stored by the database survive into v2 output.
 */

const ISO_8601 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:[.,](\d+))?([Zz]|[+-]\d{2}(?::?\d{2})?)$/

interface Instant {
  /** `YYYY-MM-DDTHH:MM:SS` in UTC. */
  readonly seconds: string
  /** Fractional-second digits as given, possibly empty. */
  readonly fraction: string
}

// `+00` (PostgreSQL's text form) and `+0000` become `+00:00`, the form Date.parse accepts.
const normaliseOffset = (offset: string): string =>
  offset === "Z" || offset === "z"
    ? "Z"
    : offset.length === 3
    ? `${offset}:00`
    : offset.length === 5
    ? `${offset.slice(0, 3)}:${offset.slice(3)}`
    : offset

const parseInstant = (value: string): Instant | undefined => {
  const match = ISO_8601.exec(value)
  if (match === null) return undefined
  const [, date, time, fraction = "", offset = "Z"] = match
  const epochMs = Date.parse(`${date}T${time}${normaliseOffset(offset)}`)
  if (Number.isNaN(epochMs)) return undefined
  return { seconds: new Date(epochMs).toISOString().slice(0, 19), fraction }
}

// Of an instant known to be valid (the formatter refuses an invalid Date first).
const instantOfEpochMs = (epochMs: number): Instant => {
  const iso = new Date(epochMs).toISOString()
  return { seconds: iso.slice(0, 19), fraction: iso.slice(20, 23) }
}

const render = (instant: Instant, digits: number): string =>
  `${instant.seconds}.${instant.fraction.padEnd(digits, "0").slice(0, digits)}Z`

// Formatting and parsing are pure, and the same stored timestamps come by again and again (a
// Store's customisers on every list, the orders of a batch sharing their time): the answers for
// the last few thousand values are kept: a lookup costs a small fraction of parsing a text and
// printing it (bench/RESULTS.md).
const REMEMBERED = 4096
const remembering = <K, V>(compute: (key: K) => V) => {
  const known = new Map<K, V>()
  return (key: K): V => {
    const hit = known.get(key)
    if (hit !== undefined) return hit
    const value = compute(key)
    if (known.size >= REMEMBERED) known.clear()
    known.set(key, value)
    return value
  }
}

const formatter = (digits: number) => {
  // An unparseable stored string is shown as stored: reads must not fail on old data.
  const ofText = remembering((value: string) => {
    const instant = parseInstant(value)
    return instant === undefined ? value : render(instant, digits)
  })
  // By the instant, not the Date: a Date can be changed after it was printed.
  const ofEpochMs = remembering((epochMs: number) => render(instantOfEpochMs(epochMs), digits))
  return (value: Date | string): string => {
    if (typeof value === "string") return ofText(value)
    const epochMs = value.getTime()
    if (Number.isNaN(epochMs)) throw new RangeError("Cannot format an invalid Date as a timestamp")
    return ofEpochMs(epochMs)
  }
}

/**
 * v2 timestamp: UTC, microseconds, `Z`. An unparseable string is returned unchanged; an invalid
 * Date is a programming error and throws RangeError.
 */
export const formatTimestampV2: (value: Date | string) => string = formatter(6)

/** v3 timestamp: UTC, milliseconds, `Z`. Same input rules as {@link formatTimestampV2}. */
export const formatTimestampV3: (value: Date | string) => string = formatter(3)

// Epoch milliseconds, not a Date, are kept: every caller gets a Date of its own.
const parseEpochMs = remembering((value: string): number | undefined => {
  const instant = parseInstant(value)
  return instant === undefined ? undefined : Date.parse(render(instant, 3))
})

/**
 * The instant a timestamp text names (milliseconds kept, finer digits dropped), or undefined when
 * the text is not an ISO 8601 / PostgreSQL timestamp.
 */
export const parseTimestamp = (value: string): Date | undefined => {
  const epochMs = parseEpochMs(value)
  return epochMs === undefined ? undefined : new Date(epochMs)
}

/** A timestamp as stored: a Date, or its text (see {@link parseTimestamp}). */
const Stored = Schema.Union([Schema.Date, Schema.String])

/**
 * A stored timestamp (a `timestamptz` column: the driver gives a Date, other configurations its
 * text) decoded to a Date; text that names no instant is refused.
 */
export const TimestampFromStored = Stored.pipe(
  Schema.decodeTo(
    Schema.Date,
    SchemaTransformation.transformEffect<Date, Date | string>({
      decode: (value, options) => {
        if (typeof value !== "string") return Effect.succeed(value)
        const date = parseTimestamp(value)
        return date === undefined
          ? Effect.fail(new SchemaIssue.InvalidValue({ expected: "an ISO 8601 timestamp" }, value, options))
          : Effect.succeed(date)
      },
      encode: Effect.succeed
    })
  )
)
