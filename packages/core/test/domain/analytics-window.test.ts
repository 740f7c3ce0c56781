import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { AnalyticsQueryInput, AnalyticsWindow } from "../../src/domain/analytics/index.js"
import {
  ANALYTICS_PERIODS,
  parseAnalyticsQuery,
  parseCalendarDate,
  periodDays,
  startOfUtcDay,
  toAnalyticsSummary
} from "../../src/domain/analytics/index.js"
import type { FieldError } from "../../src/domain/input/field-error.js"

const now = new Date("2026-03-10T15:30:00.000Z")

const window = (query: AnalyticsQueryInput, at: Date = now) => {
  const result = parseAnalyticsQuery(query, at)
  if (Result.isFailure(result)) throw new Error(`faults: ${JSON.stringify(result.failure)}`)
  return {
    period: result.success.period,
    starts_at: result.success.startsAt.toISOString(),
    ends_before: result.success.endsBefore.toISOString()
  }
}

const faults = (query: AnalyticsQueryInput, at: Date = now): ReadonlyArray<FieldError> => {
  const result = parseAnalyticsQuery(query, at)
  if (Result.isSuccess(result)) throw new Error(`accepted: ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("parseAnalyticsQuery", () => {
  it("spans period days ending on end_date, half-open at the following midnight", () => {
    expect(window({ period: "7d", end_date: "2026-03-01" })).toEqual({
      period: "7d",
      starts_at: "2026-02-23T00:00:00.000Z",
      ends_before: "2026-03-02T00:00:00.000Z"
    })
  })

  it("defaults to 30d ending yesterday (UTC)", () => {
    expect(window({})).toEqual({
      period: "30d",
      starts_at: "2026-02-08T00:00:00.000Z",
      ends_before: "2026-03-10T00:00:00.000Z"
    })
    expect(window({ period: null, end_date: null })).toEqual(window({}))
  })

  it("uses the UTC date of now, whatever the time of day", () => {
    expect(window({}, new Date("2026-03-10T00:00:00.000Z")).ends_before).toBe("2026-03-10T00:00:00.000Z")
    expect(window({}, new Date("2026-03-10T23:59:59.999Z")).ends_before).toBe("2026-03-10T00:00:00.000Z")
  })

  it.each([
    ["7d", "2026-03-02T00:00:00.000Z"],
    ["30d", "2026-02-07T00:00:00.000Z"],
    ["90d", "2025-12-09T00:00:00.000Z"],
    ["365d", "2025-03-09T00:00:00.000Z"]
  ])("period %s starts at %s for end_date 2026-03-08", (period, startsAt) => {
    expect(window({ period, end_date: "2026-03-08" }).starts_at).toBe(startsAt)
  })

  it("counts 29 February in leap years", () => {
    expect(window({ period: "7d", end_date: "2024-03-01" })).toMatchObject({
      starts_at: "2024-02-24T00:00:00.000Z",
      ends_before: "2024-03-02T00:00:00.000Z"
    })
    expect(window({ period: "7d", end_date: "2024-02-29" }).ends_before).toBe("2024-03-01T00:00:00.000Z")
    expect(window({ period: "365d", end_date: "2024-12-31" }).starts_at).toBe("2024-01-02T00:00:00.000Z")
    expect(window({ period: "365d", end_date: "2025-12-31" }).starts_at).toBe("2025-01-01T00:00:00.000Z")
  })

  it("crosses year ends", () => {
    expect(window({ period: "7d", end_date: "2025-12-31" })).toMatchObject({
      starts_at: "2025-12-25T00:00:00.000Z",
      ends_before: "2026-01-01T00:00:00.000Z"
    })
  })

  it("accepts yesterday and rejects today and later as out_of_range", () => {
    expect(window({ end_date: "2026-03-09" }).ends_before).toBe("2026-03-10T00:00:00.000Z")
    for (const endDate of ["2026-03-10", "2026-03-11", "2030-01-01"]) {
      expect(faults({ end_date: endDate })).toEqual([
        expect.objectContaining({ parameter: "end_date", code: "out_of_range" })
      ])
    }
  })

  it("rejects days the calendar lacks as invalid_date", () => {
    for (const endDate of ["2026-02-30", "2025-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00"]) {
      expect(faults({ end_date: endDate })).toEqual([
        expect.objectContaining({ parameter: "end_date", code: "invalid_date" })
      ])
    }
  })

  it("rejects anything but YYYY-MM-DD as invalid_format", () => {
    for (const endDate of ["", "garbage", "2026-3-1", "2026/03/01", "20260301", "2026-03-01T00:00:00Z", " 2026-03-01", "+02026-03-01", "２０２６-03-01"]) {
      expect(faults({ end_date: endDate })).toEqual([
        expect.objectContaining({ parameter: "end_date", code: "invalid_format" })
      ])
    }
  })

  it("reads two-digit years literally rather than as 19xx", () => {
    expect(window({ period: "7d", end_date: "0099-01-07" }).ends_before).toBe("0099-01-08T00:00:00.000Z")
  })

  it("rejects an unsupported period with the allowed values", () => {
    expect(faults({ period: "14d" })).toEqual([
      {
        parameter: "period",
        code: "unsupported_value",
        detail: "period must be one of 7d, 30d, 90d, 365d",
        allowed_values: ["7d", "30d", "90d", "365d"]
      }
    ])
    for (const period of ["", "7D", " 7d", "7", "1y"]) expect(faults({ period })[0]?.code).toBe("unsupported_value")
  })

  it("reports both parameters at once", () => {
    expect(faults({ period: "14d", end_date: "nope" }).map((fault) => fault.parameter)).toEqual(["period", "end_date"])
  })

  it("never carries a pointer, only a parameter", () => {
    for (const fault of faults({ period: "x", end_date: "y" })) expect(fault.pointer).toBeUndefined()
  })
})

describe("period helpers", () => {
  it("knows the day count of every period", () => {
    expect(ANALYTICS_PERIODS.map(periodDays)).toEqual([7, 30, 90, 365])
  })

  it("startOfUtcDay truncates to midnight UTC", () => {
    expect(startOfUtcDay(new Date("2026-03-10T15:30:00.000Z")).toISOString()).toBe("2026-03-10T00:00:00.000Z")
    expect(startOfUtcDay(new Date("1969-12-31T23:00:00.000Z")).toISOString()).toBe("1969-12-31T00:00:00.000Z")
  })

  it("parseCalendarDate returns midnight UTC", () => {
    expect(parseCalendarDate("2024-02-29")).toEqual(new Date("2024-02-29T00:00:00.000Z"))
  })
})

describe("toAnalyticsSummary", () => {
  it("assembles the resource with ISO timestamps", () => {
    const parsed = parseAnalyticsQuery({ period: "7d", end_date: "2026-03-01" }, now)
    if (Result.isFailure(parsed)) throw new Error("unexpected")
    const w: AnalyticsWindow = parsed.success
    expect(toAnalyticsSummary(w, { orderCount: 3, productCount: 5, revenue: [{ currency: "USD", amount: 100, order_count: 3 }] }))
      .toEqual({
        object: "analytics_summary",
        period: "7d",
        starts_at: "2026-02-23T00:00:00.000Z",
        ends_before: "2026-03-02T00:00:00.000Z",
        order_count: 3,
        product_count: 5,
        revenue: [{ currency: "USD", amount: 100, order_count: 3 }]
      })
  })
})
