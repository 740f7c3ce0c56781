/**
 * When a failed delivery is tried again (docs/webhooks.md: exponential backoff with jitter,
 * at least 8 attempts over at least 24 hours).
 *
 * After the n-th failed attempt the next one waits a random time drawn uniformly from
 * `[0, min(base · 2^(n−1), 6 h)]` ("full jitter": receivers coming back from an outage are not hit
 * by every sender at once). With the default base of 30 s the ceilings are 30 s, 1 min, 2 min,
 * 4 min, 8 min, 16 min, 32 min, 64 min, 2 h 8 min, 4 h 16 min, then 6 h. A delivery is given up
 * (status `failed`) only once it has had at least {@link MIN_ATTEMPTS} attempts AND its first
 * attempt is at least {@link MIN_RETRY_WINDOW_MS} old, whatever the jitter drew; in practice that is
 * 12 to 16 attempts over 24 to 30 hours.
 */

/** Fewest attempts before a delivery may be given up. */
export const MIN_ATTEMPTS = 8
/** Shortest time from the first attempt before a delivery may be given up: 24 hours. */
export const MIN_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000
/** Largest wait between two attempts: 6 hours. */
export const MAX_RETRY_DELAY_MS = 6 * 60 * 60 * 1000

/** The largest wait after `failedAttempts` failures (≥ 1) with first retry delay `baseMs`. */
export const retryCeilingMs = (failedAttempts: number, baseMs: number): number => {
  const exponent = Math.min(Math.max(failedAttempts, 1) - 1, 40)
  return Math.min(baseMs * 2 ** exponent, MAX_RETRY_DELAY_MS)
}

/** The wait before the next attempt; `random` is a uniform draw in [0, 1). */
export const retryDelayMs = (failedAttempts: number, baseMs: number, random: number): number =>
  Math.floor(Math.min(Math.max(random, 0), 1) * retryCeilingMs(failedAttempts, baseMs))

/** Whether a failing delivery has had its due: enough attempts over a long enough time. */
export const shouldGiveUp = (attempts: number, firstAttemptAt: Date, now: Date): boolean =>
  attempts >= MIN_ATTEMPTS && now.getTime() - firstAttemptAt.getTime() >= MIN_RETRY_WINDOW_MS
