import { Context, Duration, Effect, Layer, Option, Queue, Schedule } from "effect"
import { ChangeSignals } from "../../storage/change-signals.js"

/** A customiser's pricing as this process last read it, ready to send. */
export interface CachedPricing {
  /** The Store that owns the customiser: any other Store's key reads it as not found. */
  readonly storeId: number
  /** The v3 pricing document as JSON text. */
  readonly json: string
  /** Its strong entity tag. */
  readonly etag: string
}

/** The channel pricing writes are announced on, with the customiser id as payload. */
export const PRICING_CHANNEL = "signcraft_pricing"

// Documents run from a few KB to about 1 MB (100 sizes, 20 price lists of 100 rows): the cache
// keeps the most recently read up to this many bytes of JSON text in all.
const MAX_CACHED_BYTES = 16 * 1024 * 1024

/**
 * The pricing read cache, one per process. An entry is dropped when its customiser's pricing is
 * written, here or (on PostgreSQL) in any other process, which LISTEN/NOTIFY tells it; while
 * this process is not listening it caches nothing, so it never serves a document another process
 * has replaced.
 */
export class PricingCache extends Context.Service<PricingCache, {
  /** The cached pricing of the customiser, if any and if it is `storeId`'s: no other Store sees it. */
  readonly get: (customiserId: number, storeId: number) => CachedPricing | undefined
  /** The moment a read starts, for {@link put}. */
  readonly epoch: () => number
  /** Keeps what a read that started at `epoch` found, unless a write has been seen since. */
  readonly put: (customiserId: number, entry: CachedPricing, epoch: number) => void
  /** Announces a write of the customiser's pricing to every process; call inside its transaction. */
  readonly announce: (customiserId: number) => Effect.Effect<void>
  /** Drops the customiser's entry in this process; call once its write has committed. */
  readonly forget: (customiserId: number) => void
}>()("signcraft/PricingCache") {
  static readonly layer = Layer.effect(
    PricingCache,
    Effect.gen(function*() {
      const signals = yield* Effect.serviceOption(ChangeSignals)
      const entries = new Map<number, CachedPricing>()
      let bytes = 0
      let epoch = 0
      // A database whose sharing nobody told us about might have other writers: no caching.
      let enabled = Option.isSome(signals) && !signals.value.shared

      const remove = (customiserId: number) => {
        const entry = entries.get(customiserId)
        if (entry === undefined) return
        entries.delete(customiserId)
        bytes -= entry.json.length
      }
      const forget = (customiserId: number) => {
        epoch += 1
        remove(customiserId)
      }
      const clear = () => {
        epoch += 1
        entries.clear()
        bytes = 0
      }

      if (Option.isSome(signals) && signals.value.shared) {
        const shared = signals.value
        // Listens for as long as the app runs; after a lost connection, caches nothing until
        // listening again, since signals may have been missed meanwhile.
        const listenOnce = Effect.scoped(
          Effect.gen(function*() {
            const payloads = yield* shared.listen(PRICING_CHANNEL)
            clear()
            enabled = true
            return yield* Effect.forever(Effect.map(Queue.take(payloads), (payload) => forget(Number(payload))))
          })
        ).pipe(Effect.ensuring(Effect.sync(() => {
          enabled = false
          clear()
        })))
        yield* Effect.forkScoped(
          listenOnce.pipe(Effect.retry(Schedule.spaced(Duration.seconds(1))), Effect.ignore)
        )
      }

      return PricingCache.of({
        get: (customiserId, storeId) => {
          const entry = entries.get(customiserId)
          if (entry === undefined || entry.storeId !== storeId) return undefined
          // Most recently read last: eviction takes the front.
          entries.delete(customiserId)
          entries.set(customiserId, entry)
          return entry
        },
        epoch: () => epoch,
        put: (customiserId, entry, startedAt) => {
          if (!enabled || startedAt !== epoch || entry.json.length > MAX_CACHED_BYTES / 4) return
          remove(customiserId)
          entries.set(customiserId, entry)
          bytes += entry.json.length
          for (const [id, oldest] of entries) {
            if (bytes <= MAX_CACHED_BYTES) break
            entries.delete(id)
            bytes -= oldest.json.length
          }
        },
        announce: (customiserId) =>
          Option.isSome(signals) ? signals.value.signal(PRICING_CHANNEL, String(customiserId)) : Effect.void,
        forget
      })
    })
  )
}
