import { describe, expect, it } from "vitest"
import { summariseRevenue } from "../../src/domain/analytics/index.js"

describe("summariseRevenue", () => {
  it("keeps one bucket per valid currency, never summing across currencies", () => {
    expect(summariseRevenue([
      { currency: "USD", amount: 1999, orderCount: 1 },
      { currency: "EUR", amount: 500, orderCount: 2 },
      { currency: "JPY", amount: 1200, orderCount: 1 }
    ])).toEqual([
      { currency: "EUR", amount: 500, order_count: 2 },
      { currency: "JPY", amount: 1200, order_count: 1 },
      { currency: "USD", amount: 1999, order_count: 1 }
    ])
  })

  it("merges every malformed or unknown code into one null bucket, last", () => {
    expect(summariseRevenue([
      { currency: "usd", amount: 100, orderCount: 1 },
      { currency: "US", amount: 200, orderCount: 2 },
      { currency: "USD", amount: 5000, orderCount: 4 },
      { currency: "XXXX", amount: 300, orderCount: 3 },
      { currency: "", amount: 400, orderCount: 4 },
      { currency: null, amount: 500, orderCount: 5 },
      { currency: " USD", amount: 600, orderCount: 6 },
      { currency: "ABC", amount: 700, orderCount: 7 }
    ])).toEqual([
      { currency: "USD", amount: 5000, order_count: 4 },
      { currency: null, amount: 2800, order_count: 28 }
    ])
  })

  it("keeps withdrawn ISO codes in their own bucket, since old orders carry them legitimately", () => {
    expect(summariseRevenue([{ currency: "HRK", amount: 1000, orderCount: 1 }])).toEqual([
      { currency: "HRK", amount: 1000, order_count: 1 }
    ])
  })

  it("merges repeated rows of the same valid currency", () => {
    expect(summariseRevenue([
      { currency: "GBP", amount: 100, orderCount: 1 },
      { currency: "GBP", amount: 250, orderCount: 2 }
    ])).toEqual([{ currency: "GBP", amount: 350, order_count: 3 }])
  })

  it("is deterministic whatever the row order", () => {
    const rows = [
      { currency: "usd", amount: 1, orderCount: 1 },
      { currency: "USD", amount: 2, orderCount: 1 },
      { currency: "AED", amount: 3, orderCount: 1 },
      { currency: null, amount: 4, orderCount: 1 }
    ]
    expect(summariseRevenue([...rows].reverse())).toEqual(summariseRevenue(rows))
    expect(summariseRevenue(rows).map((bucket) => bucket.currency)).toEqual(["AED", "USD", null])
  })

  it("accepts bigint and decimal-text sums as SQL drivers return them", () => {
    expect(summariseRevenue([
      { currency: "USD", amount: "9007199254740990", orderCount: 1n },
      { currency: "USD", amount: 1n, orderCount: "2" }
    ])).toEqual([{ currency: "USD", amount: 9007199254740991, order_count: 3 }])
  })

  it("returns no buckets for no rows", () => {
    expect(summariseRevenue([])).toEqual([])
  })

  it("refuses to report a rounded amount", () => {
    expect(() => summariseRevenue([{ currency: "USD", amount: "9007199254740992", orderCount: 1 }])).toThrow(RangeError)
    expect(() => summariseRevenue([{ currency: "USD", amount: 1.5, orderCount: 1 }])).toThrow(RangeError)
    expect(() => summariseRevenue([{ currency: "USD", amount: "12.00", orderCount: 1 }])).toThrow(RangeError)
  })
})
