import { timingSafeEqual } from "node:crypto"

// Compares in time independent of where the strings differ. The candidate is
// copied into a buffer of the expected length so no comparison is skipped on a
// length mismatch; only the attacker-chosen length itself affects timing.
/** Whether two signatures are equal, compared in constant time. */
export const constantTimeEquals = (candidate: string, expected: string): boolean => {
  const expectedBytes = Buffer.from(expected, "utf8")
  const candidateBytes = Buffer.from(candidate, "utf8")
  const padded = Buffer.alloc(expectedBytes.length)
  candidateBytes.copy(padded, 0, 0, expectedBytes.length)
  const sameBytes = timingSafeEqual(padded, expectedBytes)
  return sameBytes && candidateBytes.length === expectedBytes.length
}
