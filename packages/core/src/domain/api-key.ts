import * as crypto from "node:crypto"
import { createHash, randomBytes, randomFillSync } from "node:crypto"

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

// Bytes for non-secret identifiers, drawn from the CSPRNG a few KiB at a time.
const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let poolUsed = POOL_BYTES

/**
 * Like {@link randomBase62}, but from a pool of CSPRNG bytes refilled 4 KiB at a time,
 * for identifiers that are not secrets (request ids): a call to the generator per id
 * cost more than the rest of the id. Secrets still use {@link randomBase62}, so no
 * secret material waits in memory.
 */
export const randomBase62Pooled = (length: number): string => {
  let out = ""
  while (out.length < length) {
    if (poolUsed === POOL_BYTES) {
      randomFillSync(pool)
      poolUsed = 0
    }
    const byte = pool[poolUsed++] ?? UNBIASED_LIMIT
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
