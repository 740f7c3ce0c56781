import { Schema } from "effect"
import { isAtLeast, isAtMost, isFiniteNumber, isMinLengthString, isOneOf, isWholeNumber } from "./checks.js"

/** Building blocks shared by the v2 and v3 pricing schemas. */

/** Any finite number. */
export const FiniteNumber = Schema.Number.check(isFiniteNumber)

/** A finite number >= 0 (dimensions, rates, amounts). */
export const NonNegativeNumber = Schema.Number.check(isFiniteNumber, isAtLeast(0))

/** An integer. */
export const Integer = Schema.Number.check(isFiniteNumber, isWholeNumber)

/** An integer >= 0 (counts, minor-unit amounts). */
export const NonNegativeInteger = Schema.Number.check(isFiniteNumber, isWholeNumber, isAtLeast(0))

/** A size's `line_limit`: 1 to 10 (see Limits). */
export const LineLimit = Schema.Number.check(isFiniteNumber, isWholeNumber, isAtLeast(1), isAtMost(10))

/** A non-empty string (`client_key`). */
export const NonEmptyString = Schema.String.check(isMinLengthString(1))

/**
 * A string restricted to an enumeration. Typed as `string`, not a literal union, so documents read
 * back from storage can carry values newer than this code (they are preserved, not rejected).
 */
export const enumString = (allowed: ReadonlyArray<string>) => Schema.String.check(isOneOf(allowed))

/**
 * Amounts keyed by line count (`line_1`, `line_2`, ...). Key names are checked on the raw input by
 * `line-keys.ts`: a schema record silently drops keys its key schema rejects, and a record-level
 * check would only run once every value is valid, hiding key faults behind value faults.
 */
export const PerLineAmounts = Schema.Record(Schema.String, NonNegativeNumber)

/** `base_price`: per-line amounts (fixed-width pricing) or one amount (material length, frame fit). */
export const BasePriceAmount = Schema.Union([NonNegativeNumber, PerLineAmounts]).annotate({
  expected: "a number or an object keyed by line"
})

/** Optional member (may be absent, must not be null). */
export const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)

/** Optional and nullable member. */
export const optionalNullable = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))
