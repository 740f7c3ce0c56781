import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

// OWASP's scrypt floor (N=2^17, r=8, p=1) with a 64-byte key; maxmem must cover 128·N·r.
const N = 131072
const R = 8
const P = 1
const KEY_LENGTH = 64
const MAX_MEM = 256 * 1024 * 1024

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
