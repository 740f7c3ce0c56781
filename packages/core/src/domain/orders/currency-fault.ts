import type { MajorToMinorError } from "../currency.js"
import { describeMajorToMinorError, isCurrencyCode } from "../currency.js"
import type { FieldError } from "../input/field-error.js"

/**
 * Normalises a previous-generation currency string: those generations stored
 * whatever case the client sent, and "usd" can only mean USD.
 */
export const normaliseLegacyCurrency = (raw: string): string | undefined => {
  const candidate = raw.trim().toUpperCase()
  return isCurrencyCode(candidate) ? candidate : undefined
}

/** FieldError for a currency string that is not an active ISO 4217 code. */
export const invalidCurrencyFault = (pointer: string, raw: string): FieldError => ({
  pointer,
  code: "invalid_currency",
  detail: `${JSON.stringify(raw)} is not an ISO 4217 currency code in circulation`
})

const conversionCode = (error: MajorToMinorError): string => {
  switch (error._tag) {
    case "UnknownCurrency":
      return "invalid_currency"
    case "InvalidAmount":
      return "invalid_value"
    case "TooManyFractionDigits":
      return "too_many_fraction_digits"
    case "OutOfRange":
      return "too_large"
  }
}

/** FieldError for a major-unit amount that has no exact minor-unit value. */
export const conversionFault = (pointer: string, error: MajorToMinorError): FieldError => ({
  pointer,
  code: conversionCode(error),
  detail: describeMajorToMinorError(error)
})
