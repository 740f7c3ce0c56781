/**
 * The retry rules the service documents for its clients (docs/client-and-cli.md), as pure
 * functions: the client feeds them what happened and gets back whether, and how long, to wait.
 */

/** Capped exponential backoff: the ceiling of the first wait and the cap of every wait, in ms. */
export interface Backoff {
  readonly baseMs: number
  readonly capMs: number
}

/** 0.5 s, 1 s, 2 s, … never above 20 s (before jitter). */
export const DEFAULT_BACKOFF: Backoff = { baseMs: 500, capMs: 20_000 }

/** The methods sent with an `Idempotency-Key`: every v3 write. */
export const isWrite = (method: string): boolean => method.toUpperCase() !== "GET" && method.toUpperCase() !== "HEAD"

/**
 * Full jitter: a uniform wait in [0, min(cap, base × 2^retry)), so clients that failed
 * together do not come back together. `retry` is 0 before the first retry; `random` is in [0, 1).
 */
export const backoffDelayMs = (retry: number, random: () => number, backoff: Backoff = DEFAULT_BACKOFF): number =>
  Math.floor(random() * Math.min(backoff.capMs, backoff.baseMs * 2 ** retry))

/** `Retry-After` in ms: the service's own reading of the header (RFC 9110 §10.2.3). */
export { parseRetryAfterMs } from "@signcraft/core/api"

/** What one attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  | { readonly _tag: "NetworkFailure" }
  | {
    readonly _tag: "Answer"
    readonly status: number
    /** The problem document's `code`, when the answer was one. */
    readonly code?: string | undefined
    /** The server's requested wait (`Retry-After`, else the body's `retry_after`), in ms. */
    readonly retryAfterMs?: number | undefined
  }

/** Whether to try again, and the least time to wait from the moment the answer arrived. */
export type RetryDecision =
  | { readonly _tag: "Stop" }
  | { readonly _tag: "Retry"; readonly delayMs: number }

/** The inputs of one retry decision. */
export interface RetryInput {
  readonly method: string
  readonly outcome: AttemptOutcome
  /** Retries already made (0 after the first attempt). */
  readonly retriesSoFar: number
  /** Retries allowed after the first attempt (0: one attempt only). */
  readonly maxRetries: number
  readonly random: () => number
  readonly backoff?: Backoff
}

// A write is only ever repeated with its original key and body, so the server
// replays rather than redoes it; a read repeats freely.
const retryable = (write: boolean, outcome: AttemptOutcome): boolean => {
  if (outcome._tag === "NetworkFailure") return true
  if (outcome.status >= 500) return true
  if (write) return outcome.status === 409 && outcome.code === "idempotency_key_in_flight"
  return outcome.status === 429
}

/**
 * Decides one retry. Reads: network failure, 429 or 5xx. Writes: network failure, 5xx or
 * `idempotency_key_in_flight`. Never 400, 401, 403, 404, 409 `idempotency_key_conflict`
 * or 422. The wait is the jittered backoff, and never shorter than the server asked for.
 */
export const decideRetry = (input: RetryInput): RetryDecision => {
  const write = isWrite(input.method)
  if (input.retriesSoFar >= input.maxRetries || !retryable(write, input.outcome)) return { _tag: "Stop" }
  const jittered = backoffDelayMs(input.retriesSoFar, input.random, input.backoff)
  const asked = input.outcome._tag === "Answer" ? input.outcome.retryAfterMs : undefined
  return { _tag: "Retry", delayMs: asked === undefined ? jittered : Math.max(jittered, asked) }
}
