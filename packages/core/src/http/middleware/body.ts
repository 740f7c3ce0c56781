import type { HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"

// Array-index member names ("0", "7", "4294967294"): an object lists these first, in numeric order.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/
const isArrayIndex = (name: string): boolean => ARRAY_INDEX.test(name) && Number(name) < 4294967295

/**
 * A parsed JSON value as text with every object's members sorted by name, as
 * `JSON.stringify` writes an object whose members were added in sorted order: array-index
 * names first, in numeric order (where an object keeps them), then the rest sorted. Stored
 * fingerprints were made that way, so the order is theirs. Written in one pass, without
 * building the sorted copy: this runs on every write that carries an Idempotency-Key.
 */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) {
    let text = "["
    for (let index = 0; index < value.length; index += 1) text += (index === 0 ? "" : ",") + canonicalJson(value[index])
    return `${text}]`
  }
  if (value !== null && typeof value === "object") {
    const record = value as Readonly<Record<string, unknown>>
    // An object lists its array-index names first, already in numeric order; only the rest need sorting.
    const names = Object.keys(record)
    let indexNames = 0
    while (indexNames < names.length && isArrayIndex(names[indexNames] ?? "")) indexNames += 1
    const ordered = indexNames === 0 ? names.sort() : [...names.slice(0, indexNames), ...names.slice(indexNames).sort()]
    let text = "{"
    for (let index = 0; index < ordered.length; index += 1) {
      const name = ordered[index] ?? ""
      text += `${index === 0 ? "" : ","}${JSON.stringify(name)}:${canonicalJson(record[name])}`
    }
    return `${text}}`
  }
  return JSON.stringify(value)
}

const utf8 = new TextDecoder()

/**
 * The fingerprint of a request body. JSON bodies are compared by value (key order and
 * white space do not matter), anything else byte for byte. `parsed` is the body's value where
 * it was parsed already (`RequestInfo.parsedBody`).
 */
export const canonicalFingerprint = (body: Uint8Array, parsed?: { readonly value: unknown }): string => {
  let canonical: string | undefined
  try {
    canonical = canonicalJson(parsed === undefined ? JSON.parse(utf8.decode(body)) : parsed.value)
  } catch {
    // Not JSON (or nested too deep to walk): the bytes themselves are the request.
  }
  const hash = createHash("sha256")
  return (canonical === undefined ? hash.update(body) : hash.update(canonical)).digest("hex")
}

/** The text of a buffered response body, as stored for replay. */
export const responseBodyText = (response: HttpServerResponse.HttpServerResponse): string => {
  const body = response.body
  switch (body._tag) {
    case "Uint8Array":
      return new TextDecoder().decode(body.body)
    case "Raw":
      return typeof body.body === "string" ? body.body : JSON.stringify(body.body)
    default:
      return ""
  }
}
