import { createHash } from "node:crypto"

/**
 * A strong entity tag for a document's JSON text: the same text always gets the same tag, and
 * any change gets another (RFC 9110 §8.8.3).
 */
export const strongEtagOf = (text: string): string =>
  `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`

// An entity tag in a list: optional W/ and a quoted opaque tag (RFC 9110 §8.8.3).
const ENTITY_TAG = /\s*(W\/)?("[^"]*")\s*(?:,|$)/y

/**
 * Whether `If-None-Match` (RFC 9110 §13.1.2) matches `etag`, so a GET answers 304: `*`, or a
 * listed tag equal under the weak comparison (opaque tags equal, W/ ignored). A malformed header
 * matches nothing, so the full answer goes out.
 */
export const ifNoneMatchHits = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false
  if (header.trim() === "*") return true
  ENTITY_TAG.lastIndex = 0
  let hit = false
  while (ENTITY_TAG.lastIndex < header.length) {
    const start = ENTITY_TAG.lastIndex
    const match = ENTITY_TAG.exec(header)
    if (match === null || ENTITY_TAG.lastIndex === start) return false
    if (match[2] === etag.replace(/^W\//, "")) hit = true
  }
  return hit
}
