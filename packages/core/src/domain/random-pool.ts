import { randomFillSync } from "node:crypto"

// Bytes for values that are random but not secret (request ids, AES-GCM IVs), drawn from the
// system's CSPRNG 4 KiB at a time: a call to the generator per value cost more than the rest of
// the value. Secrets never come from here, so no secret material waits in memory.
const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let used = POOL_BYTES

const refillIfSpent = (): void => {
  if (used < POOL_BYTES) return
  randomFillSync(pool)
  used = 0
}

/** One random byte for a value that is not a secret; no byte is handed out twice. */
export const publicRandomByte = (): number => {
  refillIfSpent()
  return pool[used++] ?? 0
}

/** `length` random bytes, a copy of their own, for a value that is not a secret. */
export const publicRandomBytes = (length: number): Buffer => {
  const bytes = Buffer.allocUnsafe(length)
  let filled = 0
  while (filled < length) {
    refillIfSpent()
    const taken = pool.copy(bytes, filled, used, Math.min(POOL_BYTES, used + length - filled))
    used += taken
    filled += taken
  }
  return bytes
}
