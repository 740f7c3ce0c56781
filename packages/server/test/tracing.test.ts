import { Effect, Fiber, Layer, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { layerTracing } from "../src/tracing.js"

// A tracer that counts the spans made through it, standing in for whatever tracer is in place.
const countingTracer = () => {
  let made = 0
  const tracer = Tracer.make({
    span(options) {
      made += 1
      return Tracer.nativeTracer.span(options)
    }
  })
  return { layer: Layer.succeed(Tracer.Tracer, tracer), made: () => made }
}

// What a request does: a named function, a span of its own, and work in a forked fiber.
const traced = Effect.fn("Service.method")(function*() {
  yield* Effect.void.pipe(Effect.withSpan("sql.execute"))
  const child = yield* Effect.forkChild(Effect.void.pipe(Effect.withSpan("worker.pass")))
  yield* Fiber.join(child)
})

describe("tracing", () => {
  it("makes no span at all when there is no endpoint to send spans to", async () => {
    const counting = countingTracer()
    await Effect.runPromise(traced().pipe(Effect.provide(Layer.merge(counting.layer, layerTracing(undefined)))))
    expect(counting.made()).toBe(0)
  })

  it("makes the spans when tracing is on (the counter does count)", async () => {
    const counting = countingTracer()
    await Effect.runPromise(traced().pipe(Effect.provide(counting.layer)))
    expect(counting.made()).toBe(3)
  })
})
