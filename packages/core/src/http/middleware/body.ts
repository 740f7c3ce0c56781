import type { HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])])
    )
  }
  return value
}

/**
 * The fingerprint of a request body. JSON bodies are compared by value (key order and
 * white space do not matter), anything else byte for byte.
 */
export const canonicalFingerprint = (body: Uint8Array): string => {
  const hash = createHash("sha256")
  try {
    hash.update(JSON.stringify(canonical(JSON.parse(new TextDecoder().decode(body)))))
  } catch {
    // Not JSON: the bytes themselves are the request.
    hash.update(body)
  }
  return hash.digest("hex")
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
