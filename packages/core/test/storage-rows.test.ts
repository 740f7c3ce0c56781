import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeRows, JsonColumn, jsonParam, RowId, RowNumber, RowTimestamp, StoredDocument } from "../src/storage/rows.js"

describe("row schemas", () => {
  it("decode ids the way either database returns them (int4 number, int8 text, bigint)", () => {
    const decode = Schema.decodeUnknownSync(RowId)
    expect(decode(7)).toBe(7)
    expect(decode("7")).toBe(7)
    expect(decode(7n)).toBe(7)
    expect(() => decode("seven")).toThrow()
    expect(() => decode(1.5)).toThrow()
  })

  it("decode sums and counts from text too", () => {
    expect(Schema.decodeUnknownSync(RowNumber)("1234.5")).toBe(1234.5)
  })

  it("decode a json column whether the driver parsed it or not, and bind it as JSON text", () => {
    const Document = StoredDocument<{ readonly a: number }>()
    const decode = Schema.decodeUnknownSync(JsonColumn(Document))
    expect(decode({ a: 1 })).toEqual({ a: 1 })
    expect(decode('{"a":1}')).toEqual({ a: 1 })
    expect(() => decode(null)).toThrow()
    expect(jsonParam(Document, { a: 1 })).toBe('{"a":1}')
  })

  it("make a row the schema refuses a defect, not a failure", () => {
    const Row = Schema.Struct({ id: RowId, at: RowTimestamp })
    const ok = Effect.runSync(decodeRows(Row)([{ id: "3", at: "2026-01-01 00:00:00+00" }]))
    expect(ok).toEqual([{ id: 3, at: new Date("2026-01-01T00:00:00.000Z") }])
    const exit = Effect.runSyncExit(decodeRows(Row)([{ id: "x", at: new Date() }]))
    expect(exit._tag === "Failure" && exit.cause.reasons.some((reason) => reason._tag === "Die")).toBe(true)
  })
})
