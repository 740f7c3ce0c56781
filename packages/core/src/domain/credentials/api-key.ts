import * as crypto from "node:crypto"
import { createHash, randomBytes } from "node:crypto"
import { publicRandomByte } from "../random-pool.js"

/** Whether a key acts on live data or is a disposable test key. */
export type KeyMode = "live" | "test"

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const SECRET_LENGTH = 40
// 248 is the largest multiple of 62 below 256: bytes at or above it are dropped so
// every character is equally likely.
const UNBIASED_LIMIT = 248

/** Draws `length` uniformly random base62 characters from the system CSPRNG. */
export const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

/**
 * Like {@link randomBase62}, but from the pool of bytes for values that are not secrets
 * (domain/random-pool.ts), for identifiers such as request ids.
 */
export const randomBase62Pooled = (length: number): string => {
  let out = ""
  while (out.length < length) {
    const byte = publicRandomByte()
    if (byte < UNBIASED_LIMIT) out += BASE62[byte % 62]
  }
  return out
}

/** Mints a new secret key: `sk_live_` or `sk_test_` and 40 base62 characters. */
export const generateApiKey = (mode: KeyMode): string => `sk_${mode}_${randomBase62(SECRET_LENGTH)}`

const KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{32,}$/

/** Reads the mode of a well-formed key, or nothing for a string that cannot be a key. */
export const parseApiKey = (candidate: string): { readonly mode: KeyMode } | undefined => {
  const match = KEY_PATTERN.exec(candidate)
  return match?.[1] === "live" || match?.[1] === "test" ? { mode: match[1] } : undefined
}

// A compact JWS (RFC 7515 §7.1): three base64url parts, the header a JSON object (`eyJ` is `{"`).
const JWT_PATTERN = /^eyJ[0-9A-Za-z_-]*\.[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+$/

/**
 * Whether a presented credential has the shape of a connector access token (a JWT), so a client
 * that sent one to the REST API can be told where it belongs.
 */
export const isJwtShaped = (candidate: string): boolean => JWT_PATTERN.test(candidate)

/**
 * The stored form of a key. The secret has 238 bits of entropy, so one SHA-256 pass
 * is enough: a slow password hash would only slow every request down.
 */
export const hashApiKey = (key: string): string => oneShotSha256Hex(key)

// `crypto.hash` (Node 20.12+) hashes in one call, without a Hash object per request.
const nodeHash = (crypto as { readonly hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash
const oneShotSha256Hex: (value: string) => string = nodeHash === undefined
  ? (value) => createHash("sha256").update(value).digest("hex")
  : (value) => nodeHash("sha256", value, "hex")

/** The non-secret prefix kept for display and support (`sk_test_AbCd…`). */
export const displayPrefix = (key: string): string => key.slice(0, 12)
