import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { canonicalFingerprint } from "../../src/http/middleware/body.js"

// The definition the fingerprints already stored in idempotency_keys were made with: a sorted
// copy of the parsed body, written by JSON.stringify. A key claimed before an upgrade must
// still match its retry after it, so the one-pass writer is held to this byte for byte.
const sortedCopy = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortedCopy)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((key) => [key, sortedCopy((value as Record<string, unknown>)[key])])
    )
  }
  return value
}
const previousFingerprint = (text: string): string => {
  const hash = createHash("sha256")
  try {
    hash.update(JSON.stringify(sortedCopy(JSON.parse(text))))
  } catch {
    hash.update(Buffer.from(text))
  }
  return hash.digest("hex")
}

const bytes = (text: string) => new TextEncoder().encode(text)

const BODIES = [
  `{"b":1,"a":{"d":[3,{"z":null,"y":true}],"c":"x"}}`,
  // Array-index names come first in numeric order, whatever their sorted order.
  `{"10":"ten","9":"nine","a":1,"01":"not an index","4294967295":"too big","4294967294":"largest"}`,
  `{"__proto__":{"x":1},"constructor":2}`,
  `{"é":1,"e":2,"😀":3,"\\u0000":4,"":5}`,
  `[{"b":1,"a":2},[],{},"s",1.5e300,-0,0.1]`,
  `"just a string"`,
  `12`,
  `null`,
  `{"nested":${"[".repeat(50)}1${"]".repeat(50)}}`,
  // Not JSON: hashed as bytes.
  `{"unterminated":`,
  `plain text`
]

describe("canonicalFingerprint", () => {
  it.each(BODIES)("matches the fingerprint stored before: %s", (text) => {
    expect(canonicalFingerprint(bytes(text))).toBe(previousFingerprint(text))
  })

  it("ignores member order and white space, and tells values apart", () => {
    const one = canonicalFingerprint(bytes(`{"a":1,"b":[1,2],"c":{"y":1,"x":2}}`))
    expect(canonicalFingerprint(bytes(` { "c" : {"x":2,"y":1}, "b":[1, 2], "a":1 } `))).toBe(one)
    expect(canonicalFingerprint(bytes(`{"a":1,"b":[2,1],"c":{"y":1,"x":2}}`))).not.toBe(one)
    expect(canonicalFingerprint(bytes(`{"a":"1","b":[1,2],"c":{"y":1,"x":2}}`))).not.toBe(one)
  })

  it("hashes a body nested too deep to walk as its bytes, rather than failing", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`
    expect(canonicalFingerprint(bytes(deep))).toBe(createHash("sha256").update(deep).digest("hex"))
  })
})
