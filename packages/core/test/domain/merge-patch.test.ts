import { describe, expect, it } from "vitest"
import { applyMergePatch } from "../../src/domain/input/merge-patch.js"

// RFC 7396 Appendix A, every example, in order.
const APPENDIX_A: ReadonlyArray<readonly [unknown, unknown, unknown]> = [
  [{ a: "b" }, { a: "c" }, { a: "c" }],
  [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
  [{ a: "b" }, { a: null }, {}],
  [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
  [{ a: ["b"] }, { a: "c" }, { a: "c" }],
  [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
  [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
  [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
  [
    ["a", "b"],
    ["c", "d"],
    ["c", "d"]
  ],
  [{ a: "b" }, ["c"], ["c"]],
  [{ a: "foo" }, null, null],
  [{ a: "foo" }, "bar", "bar"],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: "b", c: null }, { a: "b" }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }]
]

describe("applyMergePatch", () => {
  it.each(APPENDIX_A)("RFC 7396 Appendix A: %j patched with %j gives %j", (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result)
  })

  it("does not mutate the target or the patch", () => {
    const target = { a: { b: 1, c: [1, 2] }, d: "x" }
    const patch = { a: { b: null, e: { f: null, g: 1 } }, d: null }
    const targetCopy = structuredClone(target)
    const patchCopy = structuredClone(patch)
    expect(applyMergePatch(target, patch)).toEqual({ a: { c: [1, 2], e: { g: 1 } } })
    expect(target).toEqual(targetCopy)
    expect(patch).toEqual(patchCopy)
  })

  it("keeps existing members in place and appends new ones", () => {
    const result = applyMergePatch({ a: 1, b: 2, c: 3 }, { b: 20, d: 4 })
    expect(Object.keys(result as object)).toEqual(["a", "b", "c", "d"])
  })

  it("treats a __proto__ member as data, never as a prototype", () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')
    const result = applyMergePatch({}, patch) as Record<string, unknown>
    expect(Object.hasOwn(result, "__proto__")).toBe(true)
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(result.a).toBe(1)
  })

  it("replaces arrays whole (a pricing PATCH replaces sizes, it does not merge them)", () => {
    expect(applyMergePatch({ sizes: [{ name: "S" }, { name: "M" }] }, { sizes: [{ name: "L" }] })).toEqual({
      sizes: [{ name: "L" }]
    })
  })

  it("applies a patch nested far deeper than any call stack", () => {
    const depth = 100_000
    const patch = JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`)
    let level = applyMergePatch({ a: { keep: true } }, patch) as Record<string, unknown>
    expect(level.a).toMatchObject({ keep: true })
    for (let i = 0; i < depth; i++) level = level.a as Record<string, unknown>
    expect(level).toBe(1)
  })
})
