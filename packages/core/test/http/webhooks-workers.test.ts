import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { layerWebhookServices } from "../../src/app.js"
import { sampleEventPayload } from "../../src/domain/webhooks/topics.js"
import { DeliveryWorker } from "../../src/services/webhooks/delivery-worker.js"
import { OutboundHttp } from "../../src/services/outbound/outbound-http.js"
import { Outbox } from "../../src/services/webhooks/outbox.js"
import { defaultSettings, Settings } from "../../src/services/settings.js"
import { layerDatabase } from "../../src/storage/database.js"
import { postgresVariant, startApp, type TestDatabase } from "@signcraft/test-kit"

// Two workers, each with its own connection pool (as two server processes would have), share
// one PostgreSQL. The receiver flags any delivery whose attempts overlap in time.

const url = process.env.DATABASE_URL
const EVENTS = 300

describe.skipIf(url === undefined || url === "")("two delivery workers on one PostgreSQL", () => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  const inFlight = new Map<string, number>()
  const successes = new Map<string, number>()
  const attemptsSeen = new Map<string, number>()
  const overlaps: Array<string> = []
  const server = createServer((req, res) => {
    const id = String(req.headers["x-webhook-id"])
    const now = (inFlight.get(id) ?? 0) + 1
    inFlight.set(id, now)
    if (now > 1) overlaps.push(id)
    const attempt = (attemptsSeen.get(id) ?? 0) + 1
    attemptsSeen.set(id, attempt)
    req.resume()
    req.on("end", () => {
      // Held a little so concurrent duplicates would overlap; every third delivery fails once.
      setTimeout(() => {
        inFlight.set(id, (inFlight.get(id) ?? 1) - 1)
        const fail = attempt === 1 && Number(id.slice(4)) % 3 === 0
        if (!fail) successes.set(id, (successes.get(id) ?? 0) + 1)
        res.writeHead(fail ? 503 : 200).end("{}")
      }, 5)
    })
  })

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    db = await postgresVariant(url ?? "").create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 })
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const workerRuntime = (sent: Map<string, number>) => {
    const settings = Layer.succeed(Settings, defaultSettings({ environment: "test", webhookRetryBaseMs: 10 }))
    const worker = DeliveryWorker.layerWith({
      pollIntervalMs: 10,
      batchSize: 25,
      onAttempt: (claim) => sent.set(claim.topic, (sent.get(claim.topic) ?? 0) + 1)
    })
    if (db.config._tag !== "Postgres") throw new Error("PostgreSQL only")
    return ManagedRuntime.make(
      worker.pipe(
        Layer.provide(Layer.merge(layerWebhookServices, OutboundHttp.layer)),
        Layer.provide(layerDatabase({ _tag: "Postgres", url: db.config.url, maxConnections: 4 })),
        Layer.provide(settings)
      )
    )
  }

  it("never sends the same delivery twice at once, and delivers each exactly once", async () => {
    const seed = await app.seedStore({ scopes: ["webhooks:write", "webhooks:read"] })
    const port = (server.address() as AddressInfo).port
    const sub = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: seed.key,
      body: { topic: "order:created", url: `http://127.0.0.1:${port}/hook` }
    })
    expect(sub.status).toBe(201)
    const payload = sampleEventPayload("order:created")
    await app.run(Effect.gen(function*() {
      const outbox = yield* Outbox
      for (let i = 0; i < EVENTS; i++) yield* outbox.enqueue(seed.storeId, "order:created", payload)
    }))

    const sentA = new Map<string, number>()
    const sentB = new Map<string, number>()
    const a = workerRuntime(sentA)
    const b = workerRuntime(sentB)
    const fibers = await Promise.all([a, b].map((runtime) =>
      runtime.runPromise(Effect.gen(function*() {
        const worker = yield* DeliveryWorker
        return yield* Effect.forkDetach(worker.run)
      }))
    ))
    const deadline = Date.now() + 90_000
    while (successes.size < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    await Promise.all(fibers.map((fiber) => Effect.runPromise(Fiber.interrupt(fiber))))
    await a.dispose()
    await b.dispose()

    expect(overlaps).toEqual([])
    expect(successes.size).toBe(EVENTS)
    expect([...successes.values()].every((count) => count === 1)).toBe(true)
    // Both workers took part; together they made every attempt (first tries plus one retry per third).
    const madeA = sentA.get("order:created") ?? 0
    const madeB = sentB.get("order:created") ?? 0
    expect(madeA).toBeGreaterThan(0)
    expect(madeB).toBeGreaterThan(0)
    expect(madeA + madeB).toBe(EVENTS + EVENTS / 3)
  }, 150_000)
})
