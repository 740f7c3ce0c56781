import { describe, expect, it } from "vitest"
import { MS_PER_DAY, startOfUtcDay, utcDay } from "../../src/domain/utc-day.js"

describe("the UTC-day rule", () => {
  it("starts a day at midnight UTC, whatever the instant's time of day", () => {
    expect(startOfUtcDay(new Date("2026-03-10T00:00:00.000Z")).toISOString()).toBe("2026-03-10T00:00:00.000Z")
    expect(startOfUtcDay(new Date("2026-03-10T23:59:59.999Z")).toISOString()).toBe("2026-03-10T00:00:00.000Z")
    expect(startOfUtcDay(new Date("1969-12-31T23:00:00.000Z")).toISOString()).toBe("1969-12-31T00:00:00.000Z")
  })

  it("names the UTC calendar day, not the local one", () => {
    expect(utcDay(new Date("2026-03-10T23:59:59.999Z"))).toBe("2026-03-10")
    expect(utcDay(new Date("2026-03-11T00:00:00.000Z"))).toBe("2026-03-11")
    // 01:30 in UTC+02:00 is still the previous UTC day.
    expect(utcDay(new Date("2026-03-11T01:30:00+02:00"))).toBe("2026-03-10")
    expect(utcDay(new Date("2024-02-29T12:00:00.000Z"))).toBe("2024-02-29")
  })

  it("makes consecutive days one MS_PER_DAY apart", () => {
    const day = startOfUtcDay(new Date("2026-10-25T12:00:00.000Z"))
    expect(utcDay(new Date(day.getTime() + MS_PER_DAY))).toBe("2026-10-26")
  })
})
