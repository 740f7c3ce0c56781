import type { FieldError } from "./field-error.js"
import { toPointer } from "./field-error.js"

/** How deep a JSON body may nest (operating contract §5.1). */
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
  const pending: Array<{ readonly value: unknown; readonly path: ReadonlyArray<string | number> }> = [
    { value: body, path: [] }
  ]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next
    if (typeof value === "string") {
      if (isUnstorableText(value)) return unstorable(path)
    } else if (typeof value === "number") {
      if (!(Math.abs(value) <= LARGEST_EXACT)) {
        return {
          pointer: toPointer(path),
          code: "out_of_range",
          detail: `Must be a number from -${LARGEST_EXACT} to ${LARGEST_EXACT}.`
        }
      }
    } else if (typeof value === "object" && value !== null) {
      if (path.length >= MAX_JSON_DEPTH) {
        return {
          pointer: toPointer(path),
          code: "too_deep",
          detail: `JSON may nest at most ${MAX_JSON_DEPTH} levels.`
        }
      }
      if (Array.isArray(value)) {
        for (let index = value.length - 1; index >= 0; index--) pending.push({ value: value[index], path: [...path, index] })
      } else {
        const entries = Object.entries(value)
        for (let index = entries.length - 1; index >= 0; index--) {
          const [key, member] = entries[index] ?? ["", undefined]
          if (isUnstorableText(key)) return unstorable([...path, key])
          pending.push({ value: member, path: [...path, key] })
        }
      }
    }
  }
  return undefined
}

/** The name of the first form or query parameter whose name or value no field can take. */
export const findUnstorableParam = (params: URLSearchParams): string | undefined => {
  for (const [name, value] of params) {
    if (isUnstorableText(name) || isUnstorableText(value)) return isUnstorableText(name) ? "a parameter name" : name
  }
  return undefined
}
