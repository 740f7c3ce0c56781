import { Clock, type Duration, Effect, Layer } from "effect"

/** A clock a test moves by hand, and the layer that hands it to an app. */
export interface AdjustableClock {
  /** The clock's current time, in milliseconds since the epoch. */
  readonly now: () => number
  /** Moves the clock forward (or back) by `ms`. */
  readonly advance: (ms: number) => void
  /** Stops the clock where it is (it still moves by {@link advance}). */
  readonly freeze: () => void
  /** Lets a frozen clock run at real speed again, from where it stands. */
  readonly thaw: () => void
  /** Provides the clock to whatever the layer is merged into (an app's database layer, say). */
  readonly layer: Layer.Layer<never>
}

/**
 * A clock the test moves by hand, so a rule about time (an expiry, a window's edge) is tested at
 * the edge itself, to the millisecond, rather than by waiting for the wall clock. It stands still
 * at `start` unless created `running` (or thawed), when it runs at real speed from where it
 * stands. Sleeps always take real time, so drivers and workers behave as in production.
 */
export const adjustableClock = (options: { readonly start?: number; readonly running?: boolean } = {}): AdjustableClock => {
  const live = Clock.Clock.defaultValue()
  const start = options.start ?? live.currentTimeMillisUnsafe()
  let frozenAt: number | undefined = options.running === true ? undefined : start
  let offset = start - live.currentTimeMillisUnsafe()
  const now = () => frozenAt ?? live.currentTimeMillisUnsafe() + offset
  const nanos = () => BigInt(now()) * 1_000_000n
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: now,
    currentTimeMillis: Effect.sync(now),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => live.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: live.monotonicTimeNanos,
    sleep: (duration: Duration.Duration) => live.sleep(duration)
  }
  return {
    now,
    advance: (ms) => {
      if (frozenAt === undefined) offset += ms
      else frozenAt += ms
    },
    freeze: () => {
      frozenAt = now()
    },
    thaw: () => {
      if (frozenAt === undefined) return
      offset = frozenAt - live.currentTimeMillisUnsafe()
      frozenAt = undefined
    },
    layer: Layer.succeed(Clock.Clock, clock)
  }
}

/**
 * A clock standing in the middle of a minute: quota windows are minute-aligned, so a test that
 * counts within one never sees a new window open half-way through (and never waits for one).
 */
export const midMinuteClock = (): AdjustableClock => {
  const minute = 60_000
  return adjustableClock({ start: Math.floor(Date.now() / minute) * minute + minute / 2 })
}
