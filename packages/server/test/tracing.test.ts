import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Fiber, Layer, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/config.js"
import { makeLineOutput } from "../src/log-output.js"
import { layerServer } from "../src/serve.js"
import { layerTracing } from "../src/tracing.js"
import { freePort, waitForHealthy } from "./support/server-process.js"

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

describe("the server without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("serves requests, the full path's included, without making a span", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "signcraft-tracing-"))
    const port = await freePort()
    const loaded = loadConfig({ PORT: String(port), DATA_DIR: dataDir, SIGNCRAFT_ENV: "test", OPERATOR_TOKEN: "op_tracing_test_token_0123456789abcdef" })
    if (loaded._tag === "Invalid") throw new Error(loaded.errors.join("; "))
    const counting = countingTracer()
    const server = Effect.runFork(
      Layer.launch(layerServer(loaded.config, { output: makeLineOutput(() => {}), isTerminal: false })).pipe(Effect.provide(counting.layer))
    )
    try {
      await waitForHealthy(`http://127.0.0.1:${port}/healthz`, () => {}, 90_000)
      // A v3 read the fast path does not hold (no key): the framework, a middleware, a rendered failure.
      const refused = await fetch(`http://127.0.0.1:${port}/api/v3/customisers`)
      expect(refused.status).toBe(401)
      // An operator write: a handler, a service and SQL statements.
      const created = await fetch(`http://127.0.0.1:${port}/operator/v1/companies`, {
        method: "POST",
        headers: { authorization: "Bearer op_tracing_test_token_0123456789abcdef", "content-type": "application/json" },
        body: JSON.stringify({ name: "Traced" })
      })
      expect(created.status).toBe(201)
      expect(counting.made()).toBe(0)
    } finally {
      await Effect.runPromise(Fiber.interrupt(server))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
