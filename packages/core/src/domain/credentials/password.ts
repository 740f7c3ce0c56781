import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

// One of OWASP's equally strong scrypt configurations (Password Storage Cheat Sheet), the one
// with a smaller N and more lanes (p). The lanes run one after another, so a hash holds 128·N·r
// bytes, far less than the configuration with the largest N, for the same work against a
// guesser; that keeps the sign-in queue's hashes inside the server's memory budget. maxmem must
// cover 128·N·r of any stored hash, those made with the earlier, larger N included.
const N = 32768
const R = 8
const P = 3
const KEY_LENGTH = 64
const MAX_MEM = 256 * 1024 * 1024

/** The bytes one hash with the current parameters holds while it runs. */
export const PASSWORD_HASH_BYTES = 128 * N * R

const derive = (password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (error, key) =>
      error ? reject(error) : resolve(key)
    )
  )

/** Hashes a password as `scrypt$N$r$p$salt$key` (base64 parts), parameters kept for upgrades. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16)
  const key = await derive(password, salt, N, R, P)
  return ["scrypt", N, R, P, salt.toString("base64"), key.toString("base64")].join("$")
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split("$")
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false
  const expected = Buffer.from(key, "base64")
  const actual = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** Whether a stored hash was made with other parameters than today's: rehash it at the next sign-in. */
export const needsRehash = (stored: string): boolean => {
  const [scheme, n, r, p] = stored.split("$")
  return scheme !== "scrypt" || Number(n) !== N || Number(r) !== R || Number(p) !== P
}
