import type { FieldError } from "./field-error.js"
import { toPointer } from "./field-error.js"

/** How deep a JSON body may nest (docs/input-handling.md). */
export const MAX_JSON_DEPTH = 64

/** The largest integer a JSON number can carry exactly; beyond it a number overflows every field. */
const LARGEST_EXACT = Number.MAX_SAFE_INTEGER

// A UTF-16 surrogate without its partner: not text at all, and PostgreSQL refuses it, as it
// refuses NUL.
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether a string holds NUL or an unpaired surrogate, which no text field can store. */
export const isUnstorableText = (text: string): boolean => text.includes("\u0000") || UNPAIRED_SURROGATE.test(text)

const unstorable = (path: ReadonlyArray<string | number>): FieldError => ({
  pointer: toPointer(path),
  code: "invalid_value",
  detail: "Must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates."
})

/**
 * The first value of a parsed JSON body that no field can take, with its pointer: a string
 * (value or member name) holding NUL or an unpaired surrogate, a number beyond ±(2^53 − 1)
 * (`1e400` parses as Infinity), or a value nested deeper than {@link MAX_JSON_DEPTH}. Walks
 * without recursion, so a body nested 10,000 levels deep costs a loop, not the stack.
 */
export const findUnacceptableValue = (body: unknown): FieldError | undefined => {
  // Values still to look at, each with where it sits; its path is spelt out only for a fault.
  // Values that are fine as they are (most of a body) are never queued.
  const pending: Array<Place> = []
  const queue = (value: unknown, parent: Place | undefined, key: string | number) => {
    if (typeof value === "object" ? value !== null : !isAcceptableLeaf(value)) {
      pending.push({ value, parent, key, depth: parent === undefined ? 0 : parent.depth + 1 })
    }
  }
  queue(body, undefined, "")
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value } = next
    if (typeof value === "string") return unstorable(pathOf(next))
    if (typeof value === "number") {
      return {
        pointer: toPointer(pathOf(next)),
        code: "out_of_range",
        detail: `Must be a number from -${LARGEST_EXACT} to ${LARGEST_EXACT}.`
      }
    }
    if (typeof value === "object" && value !== null) {
      if (next.depth >= MAX_JSON_DEPTH) {
        return {
          pointer: toPointer(pathOf(next)),
          code: "too_deep",
          detail: `JSON may nest at most ${MAX_JSON_DEPTH} levels.`
        }
      }
      if (Array.isArray(value)) {
        for (let index = value.length - 1; index >= 0; index--) queue(value[index], next, index)
      } else {
        const record = value as Readonly<Record<string, unknown>>
        const keys = Object.keys(record)
        for (let index = keys.length - 1; index >= 0; index--) {
          const key = keys[index] ?? ""
          if (isUnstorableText(key)) return unstorable([...pathOf(next), key])
          queue(record[key], next, key)
        }
      }
    }
  }
  return undefined
}

// A value of a body and where it sits: under `parent`, at `key`, `depth` levels down.
interface Place {
  readonly value: unknown
  readonly parent: Place | undefined
  readonly key: string | number
  readonly depth: number
}

const pathOf = (place: Place): Array<string | number> => {
  const path: Array<string | number> = []
  for (let at: Place | undefined = place; at?.parent !== undefined; at = at.parent) path.push(at.key)
  return path.reverse()
}

// A string, number, boolean or null that any field of its type can take.
const isAcceptableLeaf = (value: unknown): boolean =>
  typeof value === "string" ? !isUnstorableText(value) : typeof value === "number" ? Math.abs(value) <= LARGEST_EXACT : true

/** The name of the first form or query parameter whose name or value no field can take. */
export const findUnstorableParam = (params: URLSearchParams): string | undefined => {
  for (const [name, value] of params) {
    if (isUnstorableText(name) || isUnstorableText(value)) return isUnstorableText(name) ? "a parameter name" : name
  }
  return undefined
}
