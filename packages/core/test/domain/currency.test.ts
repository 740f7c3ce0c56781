import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  ACTIVE_CURRENCY_CODES,
  describeMajorToMinorError,
  isCurrencyCode,
  isRecognisedCurrencyCode,
  majorToMinor,
  minorUnitExponent
} from "../../src/domain/currency.js"

const minor = (amount: number | string, currency: string): number => {
  const result = majorToMinor(amount, currency)
  if (Result.isFailure(result)) throw new Error(`unexpected failure ${JSON.stringify(result.failure)}`)
  return result.success
}

const failure = (amount: number | string, currency: string) => {
  const result = majorToMinor(amount, currency)
  if (Result.isSuccess(result)) throw new Error(`unexpected success ${result.success}`)
  return result.failure
}

describe("minor-unit exponents", () => {
  it.each([
    ["JPY", 0], ["KRW", 0], ["ISK", 0], ["CLP", 0], ["VND", 0], ["XAF", 0], ["XOF", 0], ["XPF", 0], ["UGX", 0],
    ["USD", 2], ["EUR", 2], ["GBP", 2], ["CHF", 2], ["IDR", 2], ["HUF", 2],
    ["KWD", 3], ["BHD", 3], ["JOD", 3], ["OMR", 3], ["TND", 3], ["LYD", 3], ["IQD", 3],
    ["CLF", 4], ["UYW", 4]
  ])("%s has %i decimal places", (code, exponent) => {
    expect(minorUnitExponent(code)).toBe(exponent)
    expect(isCurrencyCode(code)).toBe(true)
  })

  it("lists only uppercase three-letter codes with exponents 0 to 4", () => {
    expect(ACTIVE_CURRENCY_CODES.length).toBeGreaterThan(150)
    for (const code of ACTIVE_CURRENCY_CODES) {
      expect(code).toMatch(/^[A-Z]{3}$/)
      expect([0, 2, 3, 4]).toContain(minorUnitExponent(code))
    }
    expect([...ACTIVE_CURRENCY_CODES].sort()).toEqual(ACTIVE_CURRENCY_CODES)
  })

  it("returns undefined for unknown codes", () => {
    expect(minorUnitExponent("ABC")).toBeUndefined()
    expect(minorUnitExponent("usd")).toBeUndefined()
  })
})

describe("isCurrencyCode", () => {
  it.each(["usd", "US", "USDD", "XXXX", "", " USD", "USD ", "ABC"])("rejects %j", (value) => {
    expect(isCurrencyCode(value)).toBe(false)
  })

  it("rejects non-strings", () => {
    expect(isCurrencyCode(null)).toBe(false)
    expect(isCurrencyCode(undefined)).toBe(false)
    expect(isCurrencyCode(840)).toBe(false)
  })

  it("rejects codes without minor units (metals, SDR, test, no currency)", () => {
    for (const code of ["XAU", "XAG", "XDR", "XTS", "XXX", "XSU", "XUA"]) expect(isCurrencyCode(code)).toBe(false)
  })

  it("treats withdrawn codes as recognised for stored data but not for new writes", () => {
    for (const code of ["HRK", "ZWL", "ANG", "SLL", "VEF", "LTL"]) {
      expect(isCurrencyCode(code)).toBe(false)
      expect(isRecognisedCurrencyCode(code)).toBe(true)
    }
    expect(minorUnitExponent("HRK")).toBe(2)
    expect(isRecognisedCurrencyCode("usd")).toBe(false)
  })
})

describe("majorToMinor", () => {
  it("converts without floating-point error", () => {
    expect(minor(19.99, "USD")).toBe(1999)
    expect(minor("19.99", "USD")).toBe(1999)
    expect(minor(1.005, "KWD")).toBe(1005)
    expect(minor(0.07, "USD")).toBe(7)
    expect(minor(1.15, "EUR")).toBe(115)
    expect(minor(4.35, "USD")).toBe(435)
    expect(minor(1.2345, "CLF")).toBe(12345)
  })

  it("is exact for every cent amount up to 1000.00", () => {
    for (let cents = 0; cents <= 100_000; cents++) {
      if (minor(cents / 100, "USD") !== cents) throw new Error(`${cents / 100} did not convert to ${cents}`)
    }
  })

  it("pads short fractions and integers to the exponent", () => {
    expect(minor(5, "USD")).toBe(500)
    expect(minor("5.5", "USD")).toBe(550)
    expect(minor(100, "JPY")).toBe(100)
    expect(minor(1.5, "KWD")).toBe(1500)
    expect(minor("0", "USD")).toBe(0)
    expect(minor("007.10", "USD")).toBe(710)
  })

  it("ignores trailing zeros, which are not significant", () => {
    expect(minor("19.990", "USD")).toBe(1999)
    expect(minor("100.00", "JPY")).toBe(100)
    expect(minor("1.0050", "KWD")).toBe(1005)
  })

  it("handles signs and never returns negative zero", () => {
    expect(minor(-5.5, "USD")).toBe(-550)
    expect(minor("-0.01", "USD")).toBe(-1)
    expect(minor("+2.50", "USD")).toBe(250)
    expect(Object.is(minor(-0, "USD"), 0)).toBe(true)
    expect(Object.is(minor("-0.00", "USD"), 0)).toBe(true)
  })

  it("reads numbers that JavaScript prints in exponent form by their exact digits", () => {
    expect(minor(1.5e3, "USD")).toBe(150_000)
    // 1e-7 prints as "1e-7" and 1e21 as "1e+21": both are expanded, not misread.
    expect(failure(1e-7, "KWD")).toEqual({ _tag: "TooManyFractionDigits", currency: "KWD", exponent: 3, fractionDigits: 7 })
    expect(failure(1.5e21, "JPY")).toEqual({ _tag: "OutOfRange", amount: 1.5e21 })
  })

  it("rejects more significant fraction digits than the currency allows instead of rounding", () => {
    expect(failure(1.999, "USD")).toEqual({ _tag: "TooManyFractionDigits", currency: "USD", exponent: 2, fractionDigits: 3 })
    expect(failure(0.1 + 0.2, "USD")._tag).toBe("TooManyFractionDigits")
    expect(failure(100.5, "JPY")).toEqual({ _tag: "TooManyFractionDigits", currency: "JPY", exponent: 0, fractionDigits: 1 })
    expect(failure("1.0005", "KWD")._tag).toBe("TooManyFractionDigits")
    expect(failure(1e-7, "USD")).toEqual({ _tag: "TooManyFractionDigits", currency: "USD", exponent: 2, fractionDigits: 7 })
  })

  it("rejects text that is not a plain decimal", () => {
    for (const text of ["", "abc", "1e3", "1,50", " 1.50", "1.", ".5", "1.5.0", "0x10", "Infinity", "--1"]) {
      expect(failure(text, "USD")).toEqual({ _tag: "InvalidAmount", amount: text })
    }
  })

  it("rejects non-finite numbers", () => {
    expect(failure(Number.NaN, "USD")._tag).toBe("InvalidAmount")
    expect(failure(Number.POSITIVE_INFINITY, "USD")._tag).toBe("InvalidAmount")
  })

  it("rejects unknown or lowercase currencies", () => {
    expect(failure(1, "usd")).toEqual({ _tag: "UnknownCurrency", currency: "usd" })
    expect(failure(1, "XXX")).toEqual({ _tag: "UnknownCurrency", currency: "XXX" })
  })

  it("stays within the exact integer range", () => {
    expect(minor("90071992547409.91", "USD")).toBe(Number.MAX_SAFE_INTEGER)
    expect(failure("90071992547409.92", "USD")._tag).toBe("OutOfRange")
    expect(failure(1e21, "USD")._tag).toBe("OutOfRange")
  })

  it("describes every failure", () => {
    expect(describeMajorToMinorError(failure(1.999, "USD"))).toContain("never rounded")
    expect(describeMajorToMinorError(failure(1, "usd"))).toContain("usd")
    expect(describeMajorToMinorError(failure("x", "USD"))).toContain("decimal")
    expect(describeMajorToMinorError(failure(1e21, "USD"))).toContain("too large")
  })
})
