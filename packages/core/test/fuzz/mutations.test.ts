import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { applyForm, applyJson, BODY_LIMIT, badPathValues, isBadStringValue, isOverflowingNumber, mutationOf, pathsOf } from "./mutations.js"

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const valid = { name: "Neon", sizes: [{ width: 10 }], meta: { a: "b" } }

describe("mutations of a valid request", () => {
  it("splices raw JSON tokens a JavaScript value cannot hold, at the chosen path", () => {
    expect(text(applyJson(valid, "application/json", { kind: "replace", path: ["sizes", 0, "width"], value: "1e400" }).bytes))
      .toBe("{\"name\":\"Neon\",\"sizes\":[{\"width\":1e400}],\"meta\":{\"a\":\"b\"}}")
    expect(text(applyJson(valid, "application/json", { kind: "replace", path: ["name"], value: "\"\\ud800\"" }).bytes))
      .toContain("\"name\":\"\\ud800\"")
    expect(text(applyJson(valid, "application/json", { kind: "replace", path: [], value: "-0" }).bytes)).toBe("-0")
  })

  it("adds unknown members (even __proto__) and removes defined ones", () => {
    const added = text(applyJson(valid, "application/json", { kind: "add_member", path: ["meta"], name: "__proto__", value: "1" }).bytes)
    expect(added).toContain("\"meta\":{\"a\":\"b\",\"__proto__\":1}")
    const removed = JSON.parse(text(applyJson(valid, "application/json", { kind: "remove_member", path: ["sizes", 0] }).bytes))
    expect(removed.sizes).toEqual([])
  })

  it("makes bodies just under and just over the limit, sized or chunked", () => {
    const near = applyJson(valid, "application/json", { kind: "oversize", size: "near_limit", transport: "sized" })
    expect(near.bytes.length).toBe(BODY_LIMIT - 64)
    expect(JSON.parse(text(near.bytes)).name).toMatch(/^x+$/)
    const over = applyJson(valid, "application/json", { kind: "oversize", size: "over_limit", transport: "chunked" })
    expect(over.bytes.length).toBe(BODY_LIMIT + 1)
    expect(over.transport).toBe("chunked")
    const form = applyForm({ a: "1" }, { kind: "oversize", size: "over_limit", transport: "sized" })
    expect(form.bytes.length).toBe(BODY_LIMIT + 1)
    expect(applyJson({ a: 1 }, "application/json", { kind: "oversize", size: "over_limit", transport: "sized" }).bytes.length).toBe(BODY_LIMIT + 1)
    expect(applyJson([1], "application/json", { kind: "oversize", size: "over_limit", transport: "sized" }).bytes.length).toBe(BODY_LIMIT + 1)
  })

  it("changes only the content type, or only the body, as the mutation says", () => {
    const plain = applyJson(valid, "application/json", { kind: "content_type", contentType: null })
    expect(plain.contentType).toBeNull()
    expect(JSON.parse(text(plain.bytes))).toEqual(valid)
    expect(text(applyJson(valid, "application/json", { kind: "body", body: "empty" }).bytes)).toBe("")
  })

  it("repeats, replaces and drops form parameters without re-encoding the spoiled value", () => {
    const params = { grant_type: "authorization_code", code: "c" }
    expect(text(applyForm(params, { kind: "replace", path: ["code"], value: "%00" }).bytes)).toBe("grant_type=authorization_code&code=%00")
    expect(text(applyForm(params, { kind: "add_member", path: [], name: "", value: "x" }).bytes)).toBe("grant_type=authorization_code&code=c&x=x")
    expect(text(applyForm(params, { kind: "remove_member", path: ["code"] }).bytes)).toBe("grant_type=authorization_code")
  })

  it("tells NUL and unpaired surrogates from well-formed strings", () => {
    expect(isBadStringValue(JSON.stringify("a\u0000"))).toBe(true)
    expect(isBadStringValue(JSON.stringify("\ud800"))).toBe(true)
    expect(isBadStringValue(JSON.stringify("x\udc00"))).toBe(true)
    expect(isBadStringValue(JSON.stringify("\ud83d\ude00"))).toBe(false)
    expect(isBadStringValue("1e400")).toBe(false)
  })

  it("tells numbers beyond every double from large but finite ones", () => {
    for (const value of ["1e400", "-1e400", "1.7976931348623157e309"]) expect(isOverflowingNumber(value)).toBe(true)
    for (const value of ["1e308", "1e-400", "9223372036854775808", "-0"]) expect(isOverflowingNumber(value)).toBe(false)
  })

  it("spoils path ids only into forms of the entry's own id or into no id at all", () => {
    const odd = badPathValues("42")
    expect(odd).toEqual(expect.arrayContaining([" 42", "0x2a", "42e0", "0", "1e400", "%00"]))
    for (const value of odd) {
      const parsed = Number(value.replace(/%20/g, " ").trim())
      if (Number.isSafeInteger(parsed) && parsed > 0) expect(parsed).toBe(42)
    }
  })

  it("generates every kind of mutation for a body with members and path ids", () => {
    const kinds = new Set(fc.sample(mutationOf({ body: valid, pathParams: { id: "7" }, form: false }), { numRuns: 400, seed: 1 }).map((m) => m.kind))
    expect([...kinds].sort()).toEqual(["add_member", "body", "content_type", "oversize", "path_param", "remove_member", "replace"])
    expect(pathsOf(valid)).toEqual([[], ["name"], ["sizes"], ["sizes", 0], ["sizes", 0, "width"], ["meta"], ["meta", "a"]])
  })
})
