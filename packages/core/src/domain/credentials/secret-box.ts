import { createCipheriv, createDecipheriv, createHash } from "node:crypto"
import { publicRandomBytes } from "../random-pool.js"

/**
 * Secrets at rest (`SECRETS_KEY`, docs/security.md): AES-256-GCM with a random 96-bit IV
 * per value, stored as `sc1.<key id>.<iv>.<ciphertext>.<tag>` (base64url). The key id names
 * which key sealed a value, so a deployment can rotate: the first key of the ring seals, every
 * key of the ring opens.
 */

/** The prefix of a sealed value; anything else is a plaintext value from before sealing. */
export const SEALED_PREFIX = "sc1."

/** One 32-byte key and its id (the first 6 bytes of its SHA-256, base64url). */
export interface SecretKey {
  readonly id: string
  readonly key: Uint8Array
}

/** The keys a deployment holds: `seal` uses the first, `open` any of them. */
export type Keyring = readonly [SecretKey, ...ReadonlyArray<SecretKey>]

/** A key from its 32 bytes. */
export const secretKeyOf = (key: Uint8Array): SecretKey => ({
  id: createHash("sha256").update(key).digest().subarray(0, 6).toString("base64url"),
  key
})

/**
 * The keyring of a `SECRETS_KEY` value: a comma list of base64 32-byte keys, the sealing key
 * first. Answers what is wrong instead when an entry is not such a key.
 */
export const parseKeyring = (value: string): Keyring | { readonly fault: string } => {
  const keys = value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "").map((entry) => {
    const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(entry) ? Buffer.from(entry, "base64") : Buffer.alloc(0)
    return bytes.length === 32 ? secretKeyOf(bytes) : undefined
  })
  const [first, ...rest] = keys
  if (first === undefined || keys.some((key) => key === undefined)) {
    return { fault: "a comma list of 32-byte keys in base64 (e.g. `openssl rand -base64 32`)" }
  }
  return [first, ...rest.filter((key): key is SecretKey => key !== undefined)]
}

/** The prefix of a value kept in plain on purpose (see {@link keepPlain}). */
export const PLAIN_PREFIX = "pl1."

/**
 * A value that holds no secret, kept in plain on purpose, marked so: the start-up pass that seals
 * plaintext from before sealing leaves it alone, and {@link open} gives it back as it was.
 */
export const keepPlain = (text: string): string => PLAIN_PREFIX + text

/** Whether a stored value is sealed (as opposed to plaintext kept from before sealing). */
export const isSealed = (stored: string): boolean => stored.startsWith(SEALED_PREFIX)

/**
 * A fresh random 96-bit IV. An IV is stored beside its ciphertext, not a secret, so it comes from
 * the pool of public random bytes (domain/random-pool.ts): a call to the generator per value cost
 * an order write more than its cipher did (a stored idempotency answer is sealed per order).
 */
export const nextIv = (): Buffer => publicRandomBytes(12)

/** Seals a secret with the ring's first key. */
export const seal = (keyring: Keyring, plaintext: string): string => {
  const [current] = keyring
  const iv = nextIv()
  const cipher = createCipheriv("aes-256-gcm", current.key, iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return [SEALED_PREFIX + current.id, iv.toString("base64url"), ciphertext.toString("base64url"), cipher.getAuthTag().toString("base64url")]
    .join(".")
}

/** Why a sealed value cannot be opened: a key the ring lacks, or a value that was tampered with. */
export class UnopenableSecret extends Error {}

/**
 * Opens a sealed value; a value kept in plain ({@link keepPlain}) is returned as it was kept, and a
 * plaintext value from before sealing as it is.
 */
export const open = (keyring: Keyring, stored: string): string => {
  if (stored.startsWith(PLAIN_PREFIX)) return stored.slice(PLAIN_PREFIX.length)
  if (!isSealed(stored)) return stored
  const [id, iv, ciphertext, tag] = stored.slice(SEALED_PREFIX.length).split(".")
  const key = keyring.find((candidate) => candidate.id === id)
  if (key === undefined || iv === undefined || ciphertext === undefined || tag === undefined) {
    throw new UnopenableSecret(`a stored secret was sealed with key ${id ?? "?"}, which SECRETS_KEY does not hold`)
  }
  const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"))
  decipher.setAuthTag(Buffer.from(tag, "base64url"))
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8")
}
