import { hash } from "node:crypto"
import { Clock, Context, Effect, Layer, Option, Schema, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirstRow, RowNumber } from "../../storage/rows.js"
import { Settings } from "../settings.js"
import { snakeStruct } from "../../storage/table.js"

const firstUsed = decodeFirstRow(Schema.Struct({ used: RowNumber }))
const firstCooldown = decodeFirstRow(
  snakeStruct({ nextAllowedAt: RowNumber })
)

/**
 * The stored name of a bucket: a fixed-length hash of the name its caller built, so a bucket
 * named after client input (an email, an address) costs the same few bytes in memory and in the
 * database however long that input is.
 */
export const bucketKey = (bucket: string): string => {
  const known = recentKeys.get(bucket)
  if (known !== undefined) return known
  const key = hash("sha256", bucket, "base64url")
  // A hot request asks for the same few names several times; the names come from client input,
  // so the memory of them is bounded and simply starts over when full.
  if (recentKeys.size >= MAX_REMEMBERED_KEYS) recentKeys.clear()
  recentKeys.set(bucket, key)
  return key
}

const MAX_REMEMBERED_KEYS = 4_096
const recentKeys = new Map<string, string>()

/** Most windows this process keeps in memory; past it the least recently admitted is forgotten. */
export const MAX_WINDOWS_IN_MEMORY = 20_000

/** What is left of a quota's window, as this process knows it. */
export interface QuotaState {
  readonly remaining: number
  readonly resetSeconds: number
}

/** The outcome of asking a quota for one request. */
export type Admission =
  | { readonly _tag: "Admitted" }
  | { readonly _tag: "Limited"; readonly retryAfterSeconds: number }

// Leases are never larger than an eighth of what is left of the window, so tokens parked
// in an idle process stay few as the window fills up; nor larger than 32 tokens or a
// 256th of the limit, whichever is more. The second bound keeps the usual quotas (up to
// 8192 a minute) at 32-token leases, while a very large quota is not paid for with a
// database round trip every 32 requests.
const MIN_LEASE_CAP = 32
const LEASE_SHARE_OF_LIMIT = 256
const LEASE_FRACTION = 8

interface WindowState {
  readonly windowStart: number
  /** The window's count in the database when this process last leased from it. */
  used: number
  tokens: number
  exhausted: boolean
  lease: number
  /**
   * One lease at a time per bucket: requests that find no token wait for the lease in
   * flight and spend its tokens, rather than each leasing a batch of its own.
   */
  readonly gate: Semaphore.Semaphore
}

/**
 * Fixed-window quotas shared by every process on one database.
 *
 * Each window's count lives in `rate_limit_windows`. A process takes tokens from it in
 * leases, all or nothing, with a conditional UPDATE that can never raise the count above
 * the limit, so the processes together never admit more than the limit. A process
 * answers "limited" only after its own leased tokens are spent and the database has none
 * left, so callers that keep asking every process are admitted exactly `limit` times.
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  /** Takes one request from `bucket`'s quota of `limit` per `windowSeconds`. */
  readonly take: (bucket: string, limit: number, windowSeconds: number) => Effect.Effect<Admission>
  /**
   * {@link take} when it can answer without the database, at time `now`: a token this
   * process already holds, or a window known to be spent. Nothing when only the database
   * can answer; then call `take`. For hot paths that would rather not build an effect.
   */
  readonly takeHeldUnsafe: (bucket: string, limit: number, windowSeconds: number, now: number) => Admission | undefined
  /** Whether this process holds a spare token of `bucket`'s window at time `now` (spends nothing). */
  readonly holdsToken: (bucket: string, windowSeconds: number, now: number) => boolean
  /**
   * What is left of `bucket`'s window at time `now`: the database's count at this process's last
   * lease, less the tokens it still holds. Other processes' unspent leases count as used, so the
   * figure is never more than what every process together will admit.
   */
  readonly quotaState: (bucket: string, limit: number, windowSeconds: number, now: number) => QuotaState
  /** Admits at most one request per `intervalSeconds`, measured from the last admitted one. */
  readonly cooldown: (bucket: string, intervalSeconds: number) => Effect.Effect<Admission>
  /**
   * Whether `bucket`'s current window is spent, asking the database; takes nothing. For limits on
   * failures: check before the attempt, `take` once it has failed.
   */
  readonly spent: (bucket: string, limit: number, windowSeconds: number) => Effect.Effect<Admission>
  /** How many windows this process holds in memory (bounded by {@link MAX_WINDOWS_IN_MEMORY}). */
  readonly windowsInMemory: () => number
  /** Drops the counters of windows that ended before `olderThanMs`. */
  readonly prune: (olderThanMs: number) => Effect.Effect<void>
  /** Takes one request from the client address's quota (`RATE_LIMIT_PER_IP` a minute). */
  readonly admitIp: (ip: string) => Effect.Effect<Admission>
  /**
   * {@link admitIp} for hot paths, at time `now`: spends a token this process holds and answers
   * "Admitted", or spends nothing and answers nothing (then call `admitIp`).
   */
  readonly admitIpHeldUnsafe: (ip: string, now: number) => Admission | undefined
}>()("signcraft/RateLimiter") {
  /** The limiter keeping at most `maxWindows` windows in memory. */
  static readonly layerWith = (options: { readonly maxWindows: number }) => Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { rateLimitPerIpPerMinute } = yield* Settings
      const windows = new Map<string, WindowState>()

      const lease = (bucket: string, windowStart: number, amount: number, limit: number) =>
        sql`
          INSERT INTO rate_limit_windows (bucket, window_start, used) VALUES (${bucket}, ${windowStart}, ${amount})
          ON CONFLICT (bucket, window_start) DO UPDATE SET used = rate_limit_windows.used + ${amount}
          WHERE rate_limit_windows.used + ${amount} <= ${limit}
          RETURNING used`.pipe(
          Effect.orDie,
          Effect.flatMap(firstUsed),
          Effect.map((row) => Option.getOrUndefined(row)?.used)
        )

      const nextLease = (limit: number, used: number) => {
        const cap = Math.max(MIN_LEASE_CAP, Math.floor(limit / LEASE_SHARE_OF_LIMIT))
        return Math.max(1, Math.min(cap, Math.floor((limit - used) / LEASE_FRACTION)))
      }

      // Windows whose first lease is in flight, so concurrent first requests share one lease.
      // It holds no more entries than requests are in flight, and each leaves when its lease ends.
      const pending = new Map<string, WindowState>()

      const heldState = (key: string, windowStart: number): WindowState | undefined => {
        const current = windows.get(key)
        return current !== undefined && current.windowStart === windowStart ? current : undefined
      }

      // The window a bucket is in now, as this process knows it. A window not yet in memory is
      // only kept (`remember`) once a request was admitted from it, so refused callers never grow
      // the map.
      const stateFor = (key: string, windowStart: number, limit: number): WindowState => {
        const current = heldState(key, windowStart)
        if (current !== undefined) return current
        const inFlight = pending.get(key)
        if (inFlight !== undefined && inFlight.windowStart === windowStart) return inFlight
        const fresh: WindowState = {
          windowStart,
          used: 0,
          tokens: 0,
          exhausted: false,
          lease: nextLease(limit, 0),
          gate: Semaphore.makeUnsafe(1)
        }
        pending.set(key, fresh)
        return fresh
      }

      const remember = (key: string, state: WindowState) => {
        const current = windows.get(key)
        if (current === state) return
        if (current !== undefined && current.windowStart === state.windowStart) {
          // Two first requests leased concurrently: keep one state holding both leases' tokens.
          current.tokens += state.tokens
          current.used = Math.max(current.used, state.used)
          return
        }
        windows.delete(key)
        // Forgetting a window only forgoes the tokens it held: the database's count stays, so the
        // quota is never exceeded, merely reached a little sooner.
        if (windows.size >= options.maxWindows) {
          const oldest = windows.keys().next()
          if (oldest.done !== true) windows.delete(oldest.value)
        }
        windows.set(key, state)
      }


      // Asks the database for a lease once this process's tokens for the window are spent.
      const leaseOrLimit = (bucket: string, state: WindowState, limit: number, retryAfterSeconds: number) =>
        Effect.gen(function*() {
          // A lease that finished while this request waited at the gate may have left tokens.
          if (state.tokens > 0) {
            state.tokens -= 1
            return { _tag: "Admitted" } as const
          }
          if (state.exhausted) return { _tag: "Limited", retryAfterSeconds } as const
          // All-or-nothing leases: try the planned size, then a single token.
          for (const amount of state.lease > 1 ? [Math.min(state.lease, limit), 1] : [1]) {
            const used = yield* lease(bucket, state.windowStart, amount, limit)
            if (used !== undefined) {
              state.used = used
              state.tokens += amount - 1
              state.lease = nextLease(limit, used)
              return { _tag: "Admitted" } as const
            }
          }
          state.exhausted = true
          return { _tag: "Limited", retryAfterSeconds } as const
        })

      const ADMITTED: Admission = { _tag: "Admitted" }
      const admitted: Effect.Effect<Admission> = Effect.succeed(ADMITTED)

      // Most requests spend a token this process already holds: that path is synchronous
      // and allocates nothing but the bucket name the caller built.
      const takeHeldUnsafe = (bucket: string, limit: number, windowSeconds: number, now: number): Admission | undefined =>
        takeHeldByKey(bucketKey(bucket), limit, windowSeconds, now)

      const takeHeldByKey = (key: string, limit: number, windowSeconds: number, now: number): Admission | undefined => {
        const windowMs = windowSeconds * 1000
        const windowStart = Math.floor(now / windowMs) * windowMs
        const state = heldState(key, windowStart)
        if (state !== undefined && state.tokens > 0) {
          state.tokens -= 1
          return ADMITTED
        }
        if (state?.exhausted === true || limit < 1) {
          return { _tag: "Limited", retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) }
        }
        return undefined
      }

      const holdsToken = (bucket: string, windowSeconds: number, now: number): boolean =>
        holdsKey(bucketKey(bucket), windowSeconds, now)

      const holdsKey = (key: string, windowSeconds: number, now: number): boolean => {
        const state = windows.get(key)
        const windowMs = windowSeconds * 1000
        return state !== undefined && state.tokens > 0 && state.windowStart === Math.floor(now / windowMs) * windowMs
      }

      const quotaState = (bucket: string, limit: number, windowSeconds: number, now: number): QuotaState => {
        const windowMs = windowSeconds * 1000
        const windowStart = Math.floor(now / windowMs) * windowMs
        const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))
        const state = windows.get(bucketKey(bucket))
        if (state === undefined || state.windowStart !== windowStart) return { remaining: limit, resetSeconds }
        const remaining = state.exhausted ? state.tokens : limit - state.used + state.tokens
        return { remaining: Math.max(0, Math.min(limit, remaining)), resetSeconds }
      }

      const take = (bucket: string, limit: number, windowSeconds: number) =>
        Clock.clockWith((clock) => {
          const now = clock.currentTimeMillisUnsafe()
          const key = bucketKey(bucket)
          const held = takeHeldByKey(key, limit, windowSeconds, now)
          if (held === ADMITTED) return admitted
          if (held !== undefined) return Effect.succeed(held)
          const windowMs = windowSeconds * 1000
          const windowStart = Math.floor(now / windowMs) * windowMs
          const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))
          const state = stateFor(key, windowStart, limit)
          return state.gate.withPermits(1)(leaseOrLimit(key, state, limit, retryAfterSeconds)).pipe(
            Effect.map((admission) => {
              if (admission._tag === "Admitted") remember(key, state)
              if (pending.get(key) === state) pending.delete(key)
              return admission
            })
          )
        })

      const spent = Effect.fn("RateLimiter.spent")(function*(bucket: string, limit: number, windowSeconds: number) {
          const now = yield* Clock.currentTimeMillis
          const windowMs = windowSeconds * 1000
          const windowStart = Math.floor(now / windowMs) * windowMs
          const row = yield* sql`
            SELECT used FROM rate_limit_windows WHERE bucket = ${bucketKey(bucket)} AND window_start = ${windowStart}`.pipe(
            Effect.orDie,
            Effect.flatMap(firstUsed)
          )
          const used = Option.getOrUndefined(row)?.used ?? 0
          return used < limit
            ? ADMITTED
            : { _tag: "Limited", retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) } as const
        })

      const cooldown = Effect.fn("RateLimiter.cooldown")(function*(bucket: string, intervalSeconds: number) {
          const now = yield* Clock.currentTimeMillis
          const next = now + intervalSeconds * 1000
          const key = bucketKey(bucket)
          const admitted = yield* sql`
            INSERT INTO rate_limit_cooldowns (bucket, next_allowed_at) VALUES (${key}, ${next})
            ON CONFLICT (bucket) DO UPDATE SET next_allowed_at = EXCLUDED.next_allowed_at
            WHERE rate_limit_cooldowns.next_allowed_at <= ${now}
            RETURNING bucket`.pipe(Effect.orDie)
          if (admitted.length > 0) return { _tag: "Admitted" } as const
          const found = yield* sql`
            SELECT next_allowed_at FROM rate_limit_cooldowns WHERE bucket = ${key}`.pipe(
            Effect.orDie,
            Effect.flatMap(firstCooldown)
          )
          const nextAllowed = Option.getOrUndefined(found)?.nextAllowedAt ?? next
          return { _tag: "Limited", retryAfterSeconds: Math.max(1, Math.ceil((nextAllowed - now) / 1000)) } as const
        })

      const prune = Effect.fn("RateLimiter.prune")(function*(olderThanMs: number) {
          yield* sql`DELETE FROM rate_limit_windows WHERE window_start < ${olderThanMs}`
          yield* sql`DELETE FROM rate_limit_cooldowns WHERE next_allowed_at < ${olderThanMs}`
          for (const [bucket, state] of windows) if (state.windowStart < olderThanMs) windows.delete(bucket)
        }, Effect.orDie)

      // The one per-IP quota of every public surface: a bucket per client address, per minute.
      const ipBucket = (ip: string) => `ip:${ip}`
      const admitIp = (ip: string) => take(ipBucket(ip), rateLimitPerIpPerMinute, 60)
      // The hot path: the bucket's name is hashed once.
      const admitIpHeldUnsafe = (ip: string, now: number): Admission | undefined => {
        const key = bucketKey(ipBucket(ip))
        return holdsKey(key, 60, now) ? takeHeldByKey(key, rateLimitPerIpPerMinute, 60, now) : undefined
      }

      return RateLimiter.of({
        take,
        takeHeldUnsafe,
        holdsToken,
        quotaState,
        cooldown,
        spent,
        windowsInMemory: () => windows.size,
        prune,
        admitIp,
        admitIpHeldUnsafe
      })
    })
  )

  /** The limiter of every deployment: {@link MAX_WINDOWS_IN_MEMORY} windows at most. */
  static readonly layer = RateLimiter.layerWith({ maxWindows: MAX_WINDOWS_IN_MEMORY })
}
