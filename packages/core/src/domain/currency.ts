import { Result } from "effect"

/**
 * ISO 4217 List One codes in circulation, with their minor-unit exponent.
 * Codes whose minor unit is "N.A." (precious metals, SDR, test and "no currency"
 * codes such as XAU, XDR, XTS, XXX) are deliberately absent: they cannot carry
 * a money amount in minor units, so they are not currencies for this service.
 */
const ACTIVE_EXPONENTS: Readonly<Record<string, number>> = {
  AED: 2, AFN: 2, ALL: 2, AMD: 2, AOA: 2, ARS: 2, AUD: 2, AWG: 2, AZN: 2,
  BAM: 2, BBD: 2, BDT: 2, BGN: 2, BHD: 3, BIF: 0, BMD: 2, BND: 2, BOB: 2,
  BOV: 2, BRL: 2, BSD: 2, BTN: 2, BWP: 2, BYN: 2, BZD: 2,
  CAD: 2, CDF: 2, CHE: 2, CHF: 2, CHW: 2, CLF: 4, CLP: 0, CNY: 2, COP: 2,
  COU: 2, CRC: 2, CUC: 2, CUP: 2, CVE: 2, CZK: 2,
  DJF: 0, DKK: 2, DOP: 2, DZD: 2,
  EGP: 2, ERN: 2, ETB: 2, EUR: 2,
  FJD: 2, FKP: 2,
  GBP: 2, GEL: 2, GHS: 2, GIP: 2, GMD: 2, GNF: 0, GTQ: 2, GYD: 2,
  HKD: 2, HNL: 2, HTG: 2, HUF: 2,
  IDR: 2, ILS: 2, INR: 2, IQD: 3, IRR: 2, ISK: 0,
  JMD: 2, JOD: 3, JPY: 0,
  KES: 2, KGS: 2, KHR: 2, KMF: 0, KPW: 2, KRW: 0, KWD: 3, KYD: 2, KZT: 2,
  LAK: 2, LBP: 2, LKR: 2, LRD: 2, LSL: 2, LYD: 3,
  MAD: 2, MDL: 2, MGA: 2, MKD: 2, MMK: 2, MNT: 2, MOP: 2, MRU: 2, MUR: 2,
  MVR: 2, MWK: 2, MXN: 2, MXV: 2, MYR: 2, MZN: 2,
  NAD: 2, NGN: 2, NIO: 2, NOK: 2, NPR: 2, NZD: 2,
  OMR: 3,
  PAB: 2, PEN: 2, PGK: 2, PHP: 2, PKR: 2, PLN: 2, PYG: 0,
  QAR: 2,
  RON: 2, RSD: 2, RUB: 2, RWF: 0,
  SAR: 2, SBD: 2, SCR: 2, SDG: 2, SEK: 2, SGD: 2, SHP: 2, SLE: 2, SOS: 2,
  SRD: 2, SSP: 2, STN: 2, SVC: 2, SYP: 2, SZL: 2,
  THB: 2, TJS: 2, TMT: 2, TND: 3, TOP: 2, TRY: 2, TTD: 2, TWD: 2, TZS: 2,
  UAH: 2, UGX: 0, USD: 2, USN: 2, UYI: 0, UYU: 2, UYW: 4, UZS: 2,
  VED: 2, VES: 2, VND: 0, VUV: 0,
  WST: 2,
  XAF: 0, XCD: 2, XCG: 2, XOF: 0, XPF: 0,
  YER: 2,
  ZAR: 2, ZMW: 2, ZWG: 2
}

/**
 * Codes withdrawn from List One in recent years. New writes must not use them,
 * but orders stored before the withdrawal legitimately carry them, and calling
 * such data "malformed" in analytics would be wrong.
 */
const WITHDRAWN_EXPONENTS: Readonly<Record<string, number>> = {
  ANG: 2, BYR: 0, EEK: 2, HRK: 2, LTL: 2, LVL: 2, MRO: 2, SLL: 2, STD: 2,
  VEF: 2, ZMK: 2, ZWL: 2
}

const activeTable: ReadonlyMap<string, number> = new Map(Object.entries(ACTIVE_EXPONENTS))
const withdrawnTable: ReadonlyMap<string, number> = new Map(Object.entries(WITHDRAWN_EXPONENTS))

/** Every active currency code, sorted, for `allowed_values`-style listings. */
export const ACTIVE_CURRENCY_CODES: ReadonlyArray<string> = [...activeTable.keys()].sort()

/** True for an uppercase three-letter ISO 4217 code in circulation that carries minor units. */
export const isCurrencyCode = (value: unknown): value is string =>
  typeof value === "string" && activeTable.has(value)

/** True for an active code or one withdrawn recently enough to appear in stored data. */
export const isRecognisedCurrencyCode = (value: unknown): value is string =>
  typeof value === "string" && (activeTable.has(value) || withdrawnTable.has(value))

/** Minor-unit exponent of a recognised code (JPY 0, USD 2, KWD 3, CLF 4), or undefined. */
export const minorUnitExponent = (code: string): number | undefined =>
  activeTable.get(code) ?? withdrawnTable.get(code)

/** Why a major-unit amount could not be expressed exactly in minor units. */
export type MajorToMinorError =
  | { readonly _tag: "UnknownCurrency"; readonly currency: string }
  | { readonly _tag: "InvalidAmount"; readonly amount: number | string }
  | {
    readonly _tag: "TooManyFractionDigits"
    readonly currency: string
    readonly exponent: number
    readonly fractionDigits: number
  }
  | { readonly _tag: "OutOfRange"; readonly amount: number | string }

interface DecimalParts {
  readonly negative: boolean
  readonly integerDigits: string
  readonly fractionDigits: string
}

const PLAIN_DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/
const SCIENTIFIC = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/

const parsePlainDecimal = (text: string): DecimalParts | undefined => {
  const match = PLAIN_DECIMAL.exec(text)
  if (match === null) return undefined
  return { negative: match[1] === "-", integerDigits: match[2] ?? "0", fractionDigits: match[3] ?? "" }
}

// `String(n)` is the shortest text that round-trips to the same double, which is
// exactly the decimal the sender wrote in JSON; only its exponent form needs expanding.
const numberToDecimal = (value: number): DecimalParts | undefined => {
  const text = String(value)
  const scientific = SCIENTIFIC.exec(text)
  if (scientific === null) return parsePlainDecimal(text)
  const digits = `${scientific[2] ?? ""}${scientific[3] ?? ""}`
  const pointAt = (scientific[2] ?? "").length + Number(scientific[4])
  const padded = pointAt <= 0
    ? { integerDigits: "0", fractionDigits: `${"0".repeat(-pointAt)}${digits}` }
    : pointAt >= digits.length
    ? { integerDigits: `${digits}${"0".repeat(pointAt - digits.length)}`, fractionDigits: "" }
    : { integerDigits: digits.slice(0, pointAt), fractionDigits: digits.slice(pointAt) }
  return { negative: scientific[1] === "-", ...padded }
}

/**
 * Converts a major-unit decimal (number or plain decimal string such as "19.99")
 * into integer minor units without floating-point arithmetic. Never rounds:
 * significant fraction digits beyond the currency's exponent are an error
 * (trailing zeros are not significant, so "19.990" USD is 1999).
 */
export const majorToMinor = (
  amount: number | string,
  currency: string
): Result.Result<number, MajorToMinorError> => {
  const exponent = minorUnitExponent(currency)
  if (exponent === undefined) return Result.fail({ _tag: "UnknownCurrency", currency })
  const parts = typeof amount === "number"
    ? Number.isFinite(amount) ? numberToDecimal(amount) : undefined
    : parsePlainDecimal(amount)
  if (parts === undefined) return Result.fail({ _tag: "InvalidAmount", amount })
  const significantFraction = parts.fractionDigits.replace(/0+$/, "")
  if (significantFraction.length > exponent) {
    return Result.fail({
      _tag: "TooManyFractionDigits",
      currency,
      exponent,
      fractionDigits: significantFraction.length
    })
  }
  const magnitude = BigInt(`${parts.integerDigits}${significantFraction.padEnd(exponent, "0")}`)
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) return Result.fail({ _tag: "OutOfRange", amount })
  // Adding 0 turns a negative zero into a plain zero.
  return Result.succeed((parts.negative ? -Number(magnitude) : Number(magnitude)) + 0)
}

/** Human-readable explanation of a conversion failure, for `detail` texts. */
export const describeMajorToMinorError = (error: MajorToMinorError): string => {
  switch (error._tag) {
    case "UnknownCurrency":
      return `${JSON.stringify(error.currency)} is not an ISO 4217 currency code in circulation`
    case "InvalidAmount":
      return "The amount must be a finite plain decimal number such as 19.99"
    case "TooManyFractionDigits":
      return `${error.currency} has ${error.exponent} decimal place(s); the amount has ${error.fractionDigits}. Amounts are never rounded`
    case "OutOfRange":
      return "The amount is too large to be represented exactly in minor units"
  }
}
