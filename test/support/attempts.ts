import type { AttemptResult, ClaimedDelivery } from "../../packages/core/src/services/webhooks/deliveries.js"

/** One attempt the delivery worker recorded. */
export interface RecordedAttempt {
  readonly claim: ClaimedDelivery
  readonly result: AttemptResult
  /** When the worker had recorded it (`Date.now()`), to compare with a receiver's `receivedAt`. */
  readonly recordedAt: number
}

/**
 * The attempts a delivery worker records, as they are recorded: pass `onAttempt` to the app's
 * `deliveryWorker` options, then wait for a condition on them (a latch, never a sleep).
 */
export const attemptLog = () => {
  const recorded: Array<RecordedAttempt> = []
  const waiters = new Set<() => void>()
  const onAttempt = (claim: ClaimedDelivery, result: AttemptResult) => {
    recorded.push({ claim, result, recordedAt: Date.now() })
    for (const wake of waiters) wake()
  }
  /** Resolves once `predicate` holds for the attempts recorded so far; fails after `timeoutMs`. */
  const waitFor = (predicate: (attempts: ReadonlyArray<RecordedAttempt>) => boolean, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate(recorded)) return
        clearTimeout(timer)
        waiters.delete(check)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`attempts: condition not met within ${timeoutMs} ms (${recorded.length} recorded)`))
      }, timeoutMs)
      waiters.add(check)
      check()
    })
  return { recorded, onAttempt, waitFor }
}
