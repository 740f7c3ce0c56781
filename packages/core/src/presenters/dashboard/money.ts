import { minorUnitExponent } from "../../domain/currency.js"

/**
 * An amount in minor units as money in its currency (`$1,234.50`, `¥1,200`); a code the service does
 * not recognise is shown with its minor units as they are, never guessed at.
 */
export const readableMoney = (amountMinor: number, currency: string | null): string => {
  const exponent = currency === null ? undefined : minorUnitExponent(currency)
  if (currency === null || exponent === undefined) return `${amountMinor.toLocaleString("en")} (minor units${currency === null ? "" : ` of ${currency}`})`
  return new Intl.NumberFormat("en", { style: "currency", currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent })
    .format(amountMinor / 10 ** exponent)
}
