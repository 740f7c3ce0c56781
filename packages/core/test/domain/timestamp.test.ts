import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { formatTimestampV2, formatTimestampV3, parseTimestamp, TimestampFromStored } from "../../src/domain/timestamp.js"

const decode = Schema.decodeUnknownSync(TimestampFromStored)

describe("the timestamp codec", () => {
  it("reads a Date, ISO 8601 text and PostgreSQL's text form as the same instant", () => {
    const expected = "2026-07-22T10:11:12.123Z"
    expect(decode(new Date(expected)).toISOString()).toBe(expected)
    expect(decode("2026-07-22T10:11:12.123456Z").toISOString()).toBe(expected)
    expect(decode("2026-07-22 10:11:12.123456+00").toISOString()).toBe(expected)
    expect(decode("2026-07-22 12:11:12.123+0200").toISOString()).toBe(expected)
    expect(decode("2026-07-22T12:11:12.123+02:00").toISOString()).toBe(expected)
  })

  it("refuses text that names no instant", () => {
    expect(parseTimestamp("yesterday")).toBeUndefined()
    expect(() => decode("2026-07-22")).toThrow()
    expect(() => decode(12)).toThrow()
  })

  it("prints what it reads in both wire forms, microseconds kept for v2", () => {
    expect(formatTimestampV2("2026-07-22 10:11:12.123456+00")).toBe("2026-07-22T10:11:12.123456Z")
    expect(formatTimestampV3("2026-07-22 10:11:12.123456+00")).toBe("2026-07-22T10:11:12.123Z")
    expect(formatTimestampV2(new Date("2026-07-22T10:11:12.123Z"))).toBe("2026-07-22T10:11:12.123000Z")
  })
})
