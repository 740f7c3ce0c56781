import { createHash, timingSafeEqual } from "node:crypto"

// RFC 7636: a verifier is 43 to 128 unreserved characters; an S256 challenge is the
// unpadded base64url of a SHA-256 digest, always 43 characters.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** Whether a string is a well-formed PKCE code verifier. */
export const isCodeVerifier = (value: string): boolean => VERIFIER.test(value)

/** Whether a string can be an S256 code challenge. */
export const isS256Challenge = (value: string): boolean => S256_CHALLENGE.test(value)

/** The S256 challenge of a verifier: `BASE64URL(SHA256(verifier))`. */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier, "ascii").digest("base64url")

/** Whether `verifier` answers `challenge` under S256 (the only method accepted), in constant time. */
export const verifyS256 = (verifier: string, challenge: string): boolean => {
  if (!isCodeVerifier(verifier) || !isS256Challenge(challenge)) return false
  const actual = Buffer.from(s256(verifier))
  const expected = Buffer.from(challenge)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
