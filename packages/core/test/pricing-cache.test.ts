import { Deferred, Effect, Layer, Queue, Scope } from "effect"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import { describe, expect, it } from "vitest"
import { ifNoneMatchHits, strongEtagOf } from "../src/domain/etag.js"
import { type CachedPricing, PRICING_CHANNEL, PricingCache } from "../src/services/pricing/cache.js"
import { ChangeSignals } from "../src/storage/change-signals.js"

const entry = (storeId: number, json: string): CachedPricing => ({ storeId, json, etag: strongEtagOf(json) })

// Builds the cache over `signals` in a scope the test closes.
const withCache = <A>(signals: Layer.Layer<ChangeSignals> | undefined, body: (cache: PricingCache["Service"]) => Effect.Effect<A>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const scope = yield* Scope.Scope
        const layer = signals === undefined ? PricingCache.layer : PricingCache.layer.pipe(Layer.provide(signals))
        const context = yield* Layer.buildWithScope(layer, scope)
        return yield* body(context.mapUnsafe.get(PricingCache.key) as PricingCache["Service"])
      })
    )
  )

// Lets the cache's listening fiber run until it has acted on a signal (its epoch moved past
// `seen`); bounded, so a cache that never acts fails the test rather than hanging it.
const untilEpochPasses = (cache: PricingCache["Service"], seen: number) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 10_000 && cache.epoch() === seen; turn += 1) yield* Effect.yieldNow
    expect(cache.epoch()).toBeGreaterThan(seen)
  })

describe("the pricing cache", () => {
  it("on the embedded database keeps what it is given, and forgets a written customiser", async () => {
    await withCache(ChangeSignals.layerSingleProcess, (cache) =>
      Effect.sync(() => {
        cache.put(1, entry(10, "{}"), cache.epoch())
        expect(cache.get(1, 10)?.json).toBe("{}")
        // Another Store never sees it.
        expect(cache.get(1, 11)).toBeUndefined()
        cache.forget(1)
        expect(cache.get(1, 10)).toBeUndefined()
      }))
  })

  it("drops what a read found when a write landed while it read", async () => {
    await withCache(ChangeSignals.layerSingleProcess, (cache) =>
      Effect.sync(() => {
        const startedAt = cache.epoch()
        cache.forget(2)
        cache.put(2, entry(10, "stale"), startedAt)
        expect(cache.get(2, 10)).toBeUndefined()
      }))
  })

  it("evicts the least recently read documents beyond 16 MB", async () => {
    await withCache(ChangeSignals.layerSingleProcess, (cache) =>
      Effect.sync(() => {
        const big = "x".repeat(3 * 1024 * 1024)
        for (let id = 1; id <= 5; id += 1) cache.put(id, entry(10, big), cache.epoch())
        cache.get(1, 10)
        cache.put(6, entry(10, big), cache.epoch())
        // 6 × 3 MB exceeds 16 MB: the least recently read goes (2, since 1 was read again).
        expect([1, 2, 3, 4, 5, 6].filter((id) => cache.get(id, 10) !== undefined)).toEqual([1, 3, 4, 5, 6])
      }))
  })

  it("caches nothing when nobody said whether the database is shared", async () => {
    await withCache(undefined, (cache) =>
      Effect.sync(() => {
        cache.put(1, entry(10, "{}"), cache.epoch())
        expect(cache.get(1, 10)).toBeUndefined()
      }))
  })

  it("on a shared database caches only while listening, and forgets what other processes announce", async () => {
    const queue = Effect.runSync(Queue.unbounded<string, SqlError>())
    const subscribed = Effect.runSync(Deferred.make<void>())
    const release = Effect.runSync(Deferred.make<void>())
    const signals = Layer.succeed(
      ChangeSignals,
      ChangeSignals.of({
        shared: true,
        signal: () => Effect.void,
        listen: (channel) =>
          Effect.gen(function*() {
            expect(channel).toBe(PRICING_CHANNEL)
            // The subscription is confirmed only when the test says so.
            yield* Deferred.await(release)
            yield* Deferred.succeed(subscribed, undefined)
            return queue
          })
      })
    )
    await withCache(signals, (cache) =>
      Effect.gen(function*() {
        cache.put(1, entry(10, "{}"), cache.epoch())
        expect(cache.get(1, 10)).toBeUndefined()
        yield* Deferred.succeed(release, undefined)
        yield* Deferred.await(subscribed)
        yield* Effect.yieldNow
        cache.put(1, entry(10, "{}"), cache.epoch())
        expect(cache.get(1, 10)?.json).toBe("{}")
        // Every signal the cache acts on moves its epoch: wait for that, then look.
        const seen = cache.epoch()
        yield* Queue.offer(queue, "1")
        yield* untilEpochPasses(cache, seen)
        expect(cache.get(1, 10)).toBeUndefined()
        // A lost connection: everything goes, and nothing is cached until listening again.
        cache.put(3, entry(10, "{}"), cache.epoch())
        const beforeLoss = cache.epoch()
        yield* Queue.fail(queue, new SqlError({ reason: new ConnectionError({ cause: new Error("connection lost"), message: "connection lost" }) }))
        yield* untilEpochPasses(cache, beforeLoss)
        expect(cache.get(3, 10)).toBeUndefined()
        cache.put(4, entry(10, "{}"), cache.epoch())
        expect(cache.get(4, 10)).toBeUndefined()
      }))
  })
})

describe("If-None-Match", () => {
  const etag = strongEtagOf("document")
  it("matches the tag, its weak form, a list holding it, and *", () => {
    for (const header of [etag, `W/${etag}`, `"a", ${etag}`, ` ${etag} , "b"`, "*"]) expect(ifNoneMatchHits(header, etag), header).toBe(true)
  })
  it("matches nothing else, and nothing in a malformed header", () => {
    for (const header of [undefined, "", '"a"', etag.slice(1), `"a" ${etag}`, `${etag},,`]) {
      expect(ifNoneMatchHits(header, etag), String(header)).toBe(false)
    }
  })
  it("tags equal texts alike and different texts differently", () => {
    expect(strongEtagOf("a")).toBe(strongEtagOf("a"))
    expect(strongEtagOf("a")).not.toBe(strongEtagOf("b"))
  })
})
