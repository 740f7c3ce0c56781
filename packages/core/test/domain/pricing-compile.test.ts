import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { compileDecoder, isAtLeast, NonNegativeNumber } from "../../src/domain/pricing/index.js"

describe("compileDecoder", () => {
  it.each([
    ["a transformation", Schema.NumberFromString],
    ["a tuple", Schema.Tuple([Schema.String])],
    ["bigint", Schema.BigInt],
    ["properties with an index signature", Schema.StructWithRest(Schema.Struct({ a: Schema.String }), [Schema.Record(Schema.String, Schema.Number)])],
    ["an empty struct", Schema.Struct({})],
    ["an unknown", Schema.Unknown]
  ])("refuses %s when compiling, never when validating", (_name, schema) => {
    expect(() => compileDecoder(schema)).toThrow(/unsupported schema node/)
  })

  const Sample = Schema.Struct({
    name: Schema.String,
    size: Schema.optionalKey(Schema.NullOr(NonNegativeNumber)),
    tags: Schema.optionalKey(Schema.Array(Schema.Literal("a"))),
    lines: Schema.optionalKey(Schema.Record(Schema.String, Schema.Number.check(isAtLeast(1))))
  })
  const decode = compileDecoder(Sample)

  it("drops unknown members and keeps absent ones absent", () => {
    expect(decode({ name: "x", extra: 1 })).toEqual({ ok: true, value: { name: "x" } })
  })

  it("keeps a __proto__ record key as data", () => {
    const result = decode(JSON.parse('{"name": "x", "lines": {"__proto__": 2, "b": 3}}'))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const lines = result.value.lines ?? {}
    expect(Object.keys(lines)).toEqual(["__proto__", "b"])
    expect(Object.getPrototypeOf(lines)).toBe(Object.prototype)
  })

  it("reports every fault with its pointer and code", () => {
    const result = decode({ size: -1, tags: ["a", "b"], lines: { x: 0 } })
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { pointer: "/name", code: "required" },
        { pointer: "/size", code: "too_small" },
        { pointer: "/tags/1", code: "unsupported_value", allowed_values: ["a"] },
        { pointer: "/lines/x", code: "too_small" }
      ]
    })
  })

  it("treats a member sent as undefined as present (Effect does too)", () => {
    expect(decode({ name: "x", size: undefined })).toMatchObject({ ok: false, errors: [{ pointer: "/size", code: "invalid_type" }] })
  })

  // biome-ignore lint/suspicious/noSparseArray: a sparse array is exactly the odd input under test
  const sparse = [1, , 3]
  it.each([null, undefined, 0, "x", [], new Map(), new Date(), Object.create(null), sparse])(
    "does not throw on %p",
    (input) => {
      expect(() => decode(input)).not.toThrow()
    }
  )
})
