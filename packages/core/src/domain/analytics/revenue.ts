import { isRecognisedCurrencyCode } from "../currency.js"

/** An integer as a SQL driver may return it: number, bigint, or decimal text for `bigint`/`numeric` sums. */
export type SqlInteger = number | bigint | string

/** One grouped row of stored orders: the raw currency column and its sums. */
export interface RevenueRow {
  readonly currency: string | null
  readonly amount: SqlInteger
  readonly orderCount: SqlInteger
}

/** A revenue bucket of `analytics_summary`: native currency (null for malformed data), minor units, orders. */
export interface RevenueBucket {
  readonly currency: string | null
  readonly amount: number
  readonly order_count: number
}

// Non-integers or sums past 2^53 mean the query broke its contract; reporting a
// rounded amount would be silently wrong, so this is a defect, not a fault.
const toBigInt = (value: SqlInteger, field: string): bigint => {
  if (typeof value === "bigint") return value
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value)
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value)
  throw new RangeError(`Revenue row ${field} is not an integer: ${String(value)}`)
}

const toSafeNumber = (value: bigint, field: string): number => {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`Revenue ${field} ${value} exceeds the exact integer range`)
  }
  return Number(value)
}

const compareCurrencies = (a: string | null, b: string | null): number => {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return a < b ? -1 : 1
}

/**
 * Normalises grouped revenue rows into `analytics_summary.revenue`: a stored
 * code that is exactly a recognised uppercase ISO 4217 code keeps its own
 * bucket; every other value (lowercase, wrong length, unknown, empty, null)
 * joins one bucket with `currency: null`. Amounts are summed only within a
 * bucket, never across currencies. Buckets are ordered by code, null last.
 * Throws RangeError when a row is not integral or a sum leaves the exact range.
 */
export const summariseRevenue = (rows: ReadonlyArray<RevenueRow>): ReadonlyArray<RevenueBucket> => {
  const totals = new Map<string | null, { amount: bigint; orders: bigint }>()
  for (const row of rows) {
    const currency = isRecognisedCurrencyCode(row.currency) ? row.currency : null
    const bucket = totals.get(currency) ?? { amount: 0n, orders: 0n }
    totals.set(currency, {
      amount: bucket.amount + toBigInt(row.amount, "amount"),
      orders: bucket.orders + toBigInt(row.orderCount, "order_count")
    })
  }
  return [...totals]
    .sort(([a], [b]) => compareCurrencies(a, b))
    .map(([currency, { amount, orders }]) => ({
      currency,
      amount: toSafeNumber(amount, "amount"),
      order_count: toSafeNumber(orders, "order_count")
    }))
}
