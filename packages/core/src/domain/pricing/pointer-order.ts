import type { FieldError } from "../input/field-error.js"

/** Orders faults by where they sit in the document, so clients read them top to bottom. */

const tokens = (pointer: string | undefined): ReadonlyArray<string> => (pointer ?? "").split("/").slice(1)

const isIndex = (token: string): boolean => /^(0|[1-9][0-9]*)$/.test(token)

// Array indexes compare numerically ("/rows/2" before "/rows/10"); names compare as text.
const compareTokens = (a: string, b: string): number => {
  if (isIndex(a) && isIndex(b)) return Number(a) - Number(b)
  return a < b ? -1 : a > b ? 1 : 0
}

/** Comparator for FieldErrors by pointer (a parent before its members); stable for equal pointers. */
export const compareByPointer = (a: FieldError, b: FieldError): number => {
  const left = tokens(a.pointer)
  const right = tokens(b.pointer)
  const shared = Math.min(left.length, right.length)
  for (let index = 0; index < shared; index++) {
    const order = compareTokens(left[index] ?? "", right[index] ?? "")
    if (order !== 0) return order
  }
  return left.length - right.length
}
