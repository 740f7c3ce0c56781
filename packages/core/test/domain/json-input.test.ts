import { describe, expect, it } from "vitest"
import { findUnacceptableValue, findUnstorableParam, isUnstorableText, MAX_JSON_DEPTH } from "../../src/domain/input/json-input.js"

const nested = (levels: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

describe("findUnacceptableValue", () => {
  it("accepts ordinary JSON, paired surrogates (emoji) included", () => {
    expect(findUnacceptableValue({ name: "Shop 😀", items: [1, -2.5, null, true, { x: "y" }] })).toBeUndefined()
  })

  it("names a string holding NUL or an unpaired surrogate, as a value or a member name", () => {
    expect(findUnacceptableValue({ a: [{ b: "x\u0000y" }] })?.pointer).toBe("/a/0/b")
    expect(findUnacceptableValue({ a: "\ud800" })?.pointer).toBe("/a")
    expect(findUnacceptableValue({ a: "\udc00x" })?.pointer).toBe("/a")
    expect(findUnacceptableValue({ "k\u0000": 1 })?.pointer).toBe("/k\u0000")
  })

  it("names a number beyond ±(2^53 − 1), Infinity from 1e400 included", () => {
    expect(findUnacceptableValue(JSON.parse('{"sizes":[{"width_cm":1e400}]}'))).toMatchObject({
      pointer: "/sizes/0/width_cm",
      code: "out_of_range"
    })
    expect(findUnacceptableValue({ n: Number.MAX_SAFE_INTEGER })).toBeUndefined()
    expect(findUnacceptableValue({ n: -(Number.MAX_SAFE_INTEGER + 2) })?.pointer).toBe("/n")
  })

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses the next, without recursion`, () => {
    expect(findUnacceptableValue(nested(MAX_JSON_DEPTH))).toBeUndefined()
    expect(findUnacceptableValue(nested(MAX_JSON_DEPTH + 1))?.code).toBe("too_deep")
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)
    expect(findUnacceptableValue(deep)?.pointer).toBe("/0".repeat(MAX_JSON_DEPTH))
  })
})

describe("form parameters", () => {
  it("tells text no field can store", () => {
    expect(isUnstorableText("plain")).toBe(false)
    expect(isUnstorableText("a\u0000")).toBe(true)
  })

  it("names the first parameter holding NUL", () => {
    expect(findUnstorableParam(new URLSearchParams("a=1&client_id=%00"))).toBe("client_id")
    expect(findUnstorableParam(new URLSearchParams("a=1&b=2"))).toBeUndefined()
  })
})
