/** Time as the client sees it; tests replace it so no wait is ever really slept. */
export interface Clock {
  /** Milliseconds; only differences are used, except to read an HTTP-date `Retry-After`. */
  readonly now: () => number
  readonly sleep: (ms: number) => Promise<void>
}

/** The real clock: `Date.now` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms))
}
