import { Schema } from "effect"
import { isCurrencyCode } from "../currency.js"

// Filters carry a `code` annotation so `decodeRequest` can report a stable
// field-error code instead of the generic `invalid_value`.

/** Integer >= 0: money amounts in minor units. */
export const NonNegativeInt = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(0, { expected: "an integer >= 0", code: "too_small" })
)

/** Integer >= 1: identifiers and quantities. */
export const PositiveInt = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(1, { expected: "an integer >= 1", code: "too_small" })
)

/** Finite number >= 0: dimensions in centimetres. */
export const NonNegativeNumber = Schema.Finite.check(
  Schema.isGreaterThanOrEqualTo(0, { expected: "a number >= 0", code: "too_small" })
)

/** Uppercase ISO 4217 code in circulation. */
export const CurrencyCode = Schema.String.check(
  Schema.makeFilter((value: string) => isCurrencyCode(value), {
    expected: "an uppercase ISO 4217 currency code such as USD",
    code: "invalid_currency"
  })
)

/**
 * A client's identifier for a record of its own (store product id, legacy product id): at most
 * 255 characters, which also keeps it within what the database can index.
 */
export const ExternalIdentifier = Schema.String.check(
  Schema.isMaxLength(255, { expected: "at most 255 characters", code: "too_long" })
)

/** Absolute URL, as accepted by the WHATWG URL parser. */
export const AbsoluteUrl = Schema.String.check(
  Schema.makeFilter((value: string) => URL.canParse(value), {
    expected: "an absolute URL",
    code: "invalid_url"
  })
)

/** Stable snake_case identifier: lowercase ASCII letters and digits joined by single underscores. */
export const SNAKE_CASE_KEY = /^[a-z0-9]+(?:_[a-z0-9]+)*$/

/** Customisation key in stable snake_case. */
export const SnakeCaseKey = Schema.String.check(
  Schema.makeFilter((value: string) => SNAKE_CASE_KEY.test(value), {
    expected: "a snake_case key such as font_family",
    code: "invalid_key"
  })
)

/** Non-empty string. */
export const RequiredText = Schema.String.check(
  Schema.makeFilter((value: string) => value.length > 0, { expected: "a non-empty string", code: "too_short" })
)

/** Optional key that may be null. */
export const optionalNullable = <S extends Schema.Constraint>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))
