import { parseRetryAfterMs } from "../outbound/retry-after.js"
import { MAX_RETRY_DELAY_MS, retryDelayMs, shouldGiveUp } from "./retry-schedule.js"

/**
 * What a receiver's answer means for a delivery, after the Standard Webhooks recommendations
 * (https://github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md, "Deliverability"):
 * 2xx delivered it; 410 Gone says the endpoint is gone for good, so its subscription is disabled
 * at once; 429, 502, 503 and 504 may say when to come back (`Retry-After`, RFC 9110 §10.2.3),
 * which is honoured but never beyond {@link MAX_RETRY_DELAY_MS} (6 hours, the schedule's longest
 * wait), so a receiver cannot park its deliveries past the retry window with one header.
 */

/** The statuses whose `Retry-After` is honoured. */
export const RETRY_AFTER_STATUSES: ReadonlyArray<number> = [429, 502, 503, 504]

/** What comes after an attempt. */
export type NextStep =
  | { readonly _tag: "Delivered" }
  | { readonly _tag: "Retry"; readonly delayMs: number }
  | { readonly _tag: "GiveUp" }
  | { readonly _tag: "Disable"; readonly reason: "gone" }

/** One attempt's outcome, as the rule needs it. */
export interface AttemptOutcome {
  /** The answer's status, or null when none came (network failure, timeout, refused URL). */
  readonly status: number | null
  /** The answer's `Retry-After` header, when it had one. */
  readonly retryAfter: string | undefined
  /** The number of the attempt just made, from 1. */
  readonly attempt: number
  readonly firstAttemptAt: Date
  readonly now: Date
  /** The first retry's delay ceiling (`webhookRetryBaseMs`). */
  readonly baseMs: number
  /** A uniform draw in [0, 1) for the jitter. */
  readonly random: number
}

/** The wait a `Retry-After` asks for, clamped to [0, 6 h]; undefined when the status or header gives none. */
export const requestedDelayMs = (status: number | null, retryAfter: string | undefined, now: Date): number | undefined => {
  if (status === null || !RETRY_AFTER_STATUSES.includes(status)) return undefined
  const asked = parseRetryAfterMs(retryAfter, now.getTime())
  return asked === undefined ? undefined : Math.min(asked, MAX_RETRY_DELAY_MS)
}

/** The next step after an attempt: delivered, disabled (410), given up, or retried after a delay. */
export const nextStepAfter = (outcome: AttemptOutcome): NextStep => {
  const { status } = outcome
  if (status !== null && status >= 200 && status < 300) return { _tag: "Delivered" }
  if (status === 410) return { _tag: "Disable", reason: "gone" }
  if (shouldGiveUp(outcome.attempt, outcome.firstAttemptAt, outcome.now)) return { _tag: "GiveUp" }
  const scheduled = retryDelayMs(outcome.attempt, outcome.baseMs, outcome.random)
  const asked = requestedDelayMs(status, outcome.retryAfter, outcome.now)
  return { _tag: "Retry", delayMs: asked === undefined ? scheduled : Math.max(asked, scheduled) }
}
