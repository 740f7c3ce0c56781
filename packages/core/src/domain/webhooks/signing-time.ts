import { constantTimeEquals } from "./constant-time.js"

/** Largest accepted distance between the signing time and the receiver's clock. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300

/** Outcome of verifying a delivery, in either signature scheme; `reason` is safe to log, never echo secrets. */
export type WebhookVerification =
  | { readonly ok: true }
  | {
    readonly ok: false
    readonly reason: "missing_header" | "invalid_timestamp" | "timestamp_out_of_tolerance" | "signature_mismatch"
  }

/** Refuses a signing time that is not non-negative integer Unix seconds: a signature over it would never verify. */
export const assertSigningTimestamp = (timestamp: number): void => {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`Webhook timestamp must be non-negative integer Unix seconds, got ${timestamp}`)
  }
}

/**
 * Checks a received timestamp header: a decimal Unix second within `toleranceSeconds` (default 300)
 * of `now` in either direction. Answers the failure, or undefined when the time is acceptable.
 */
export const checkSigningTime = (
  timestamp: string,
  toleranceSeconds: number | undefined,
  now: Date | undefined
): WebhookVerification | undefined => {
  if (!/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: "invalid_timestamp" }
  const tolerance = toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS
  const nowSeconds = (now ?? new Date()).getTime() / 1000
  // Written so that a NaN clock or tolerance fails closed instead of accepting any age.
  const withinTolerance = Math.abs(nowSeconds - Number(timestamp)) <= tolerance
  return withinTolerance ? undefined : { ok: false, reason: "timestamp_out_of_tolerance" }
}

/** Whether any presented signature equals (constant time) the one expected for any of the secrets. */
export const anySignatureMatches = <S>(
  secrets: ReadonlyArray<S>,
  presented: ReadonlyArray<string>,
  expectedFor: (secret: S) => string
): WebhookVerification => {
  const matches = secrets.some((secret) => {
    const expected = expectedFor(secret)
    return presented.some((candidate) => constantTimeEquals(candidate, expected))
  })
  return matches ? { ok: true } : { ok: false, reason: "signature_mismatch" }
}
