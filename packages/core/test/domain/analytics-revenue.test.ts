import { describe, expect, it } from "vitest"
import { summariseRevenue } from "../../src/domain/analytics/index.js"

describe("summariseRevenue", () => {
  it("keeps one bucket per valid currency, never summing across currencies", () => {
    expect(summariseRevenue([
      { currency: "USD", amount: 1999, order_count: 1 },
      { currency: "EUR", amount: 500, order_count: 2 },
      { currency: "JPY", amount: 1200, order_count: 1 }
    ])).toEqual([
      { currency: "EUR", amount: 500, order_count: 2 },
      { currency: "JPY", amount: 1200, order_count: 1 },
      { currency: "USD", amount: 1999, order_count: 1 }
    ])
  })

  it("merges every malformed or unknown code into one null bucket, last", () => {
    expect(summariseRevenue([
      { currency: "usd", amount: 100, order_count: 1 },
      { currency: "US", amount: 200, order_count: 2 },
      { currency: "USD", amount: 5000, order_count: 4 },
      { currency: "XXXX", amount: 300, order_count: 3 },
      { currency: "", amount: 400, order_count: 4 },
      { currency: null, amount: 500, order_count: 5 },
      { currency: " USD", amount: 600, order_count: 6 },
      { currency: "ABC", amount: 700, order_count: 7 }
    ])).toEqual([
      { currency: "USD", amount: 5000, order_count: 4 },
      { currency: null, amount: 2800, order_count: 28 }
    ])
  })

  it("keeps withdrawn ISO codes in their own bucket, since old orders carry them legitimately", () => {
    expect(summariseRevenue([{ currency: "HRK", amount: 1000, order_count: 1 }])).toEqual([
      { currency: "HRK", amount: 1000, order_count: 1 }
    ])
  })

  it("merges repeated rows of the same valid currency", () => {
    expect(summariseRevenue([
      { currency: "GBP", amount: 100, order_count: 1 },
      { currency: "GBP", amount: 250, order_count: 2 }
    ])).toEqual([{ currency: "GBP", amount: 350, order_count: 3 }])
  })

  it("is deterministic whatever the row order", () => {
    const rows = [
      { currency: "usd", amount: 1, order_count: 1 },
      { currency: "USD", amount: 2, order_count: 1 },
      { currency: "AED", amount: 3, order_count: 1 },
      { currency: null, amount: 4, order_count: 1 }
    ]
    expect(summariseRevenue([...rows].reverse())).toEqual(summariseRevenue(rows))
    expect(summariseRevenue(rows).map((bucket) => bucket.currency)).toEqual(["AED", "USD", null])
  })

  it("accepts bigint and decimal-text sums as SQL drivers return them", () => {
    expect(summariseRevenue([
      { currency: "USD", amount: "9007199254740990", order_count: 1n },
      { currency: "USD", amount: 1n, order_count: "2" }
    ])).toEqual([{ currency: "USD", amount: 9007199254740991, order_count: 3 }])
  })

  it("returns no buckets for no rows", () => {
    expect(summariseRevenue([])).toEqual([])
  })

  it("refuses to report a rounded amount", () => {
    expect(() => summariseRevenue([{ currency: "USD", amount: "9007199254740992", order_count: 1 }])).toThrow(RangeError)
    expect(() => summariseRevenue([{ currency: "USD", amount: 1.5, order_count: 1 }])).toThrow(RangeError)
    expect(() => summariseRevenue([{ currency: "USD", amount: "12.00", order_count: 1 }])).toThrow(RangeError)
  })
})
