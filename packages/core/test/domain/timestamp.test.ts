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

  it("answers the same for a value seen before, past the remembered few thousand, and for a Date changed since", () => {
    // Distinct instants a second apart, more than are remembered, each printed and parsed twice.
    const base = Date.UTC(2026, 6, 22, 10, 11, 12, 123)
    const texts = Array.from({ length: 5000 }, (_, n) => new Date(base + n * 1000).toISOString().replace("T", " ").replace("Z", "456+00"))
    for (const round of [1, 2]) {
      texts.forEach((text, n) => {
        const iso = new Date(base + n * 1000).toISOString()
        expect(formatTimestampV3(text), `round ${round}`).toBe(iso)
        expect(formatTimestampV2(text)).toBe(iso.replace("Z", "456Z"))
        expect(parseTimestamp(text)?.toISOString()).toBe(iso)
      })
    }
    const date = new Date(base)
    expect(formatTimestampV3(date)).toBe("2026-07-22T10:11:12.123Z")
    date.setTime(base + 1)
    expect(formatTimestampV3(date)).toBe("2026-07-22T10:11:12.124Z")
    // Every caller gets a Date of its own.
    const first = parseTimestamp(texts[0] ?? "")
    first?.setTime(0)
    expect(parseTimestamp(texts[0] ?? "")?.toISOString()).toBe("2026-07-22T10:11:12.123Z")
    expect(() => formatTimestampV3(new Date(Number.NaN))).toThrow(RangeError)
    expect(formatTimestampV3("not a time")).toBe("not a time")
  })
})
