import express from "express"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toNodeListener } from "../src/index.js"
import { closeServer, type Host, listenOnLoopback, loopbackFetch } from "./support/host-suite.js"
import { midMinuteClock } from "@signcraft/test-kit/clock"
import { startSigncraft } from "./support/signcraft.js"

describe("the client's address through an adapter", () => {
  let app: Awaited<ReturnType<typeof startSigncraft>>
  let host: Host

  beforeAll(async () => {
    // Quotas count per minute window: the app's clock stands mid-minute, so no window opens
    // half-way through the counted requests.
    app = await startSigncraft({ rateLimitPerIpPerMinute: 2 }, midMinuteClock().layer)
    const server = express()
    server.set("trust proxy", "loopback")
    server.use(toNodeListener(app.handler))
    const listener = createServer(server)
    const port = await listenOnLoopback(listener)
    host = { fetch: loopbackFetch(port), port, close: () => closeServer(listener) }
  })
  afterAll(async () => {
    await host.close()
    await app.dispose()
  })

  it("gives each client its own per-IP quota instead of one shared bucket", { timeout: 120_000 }, async () => {
    // The first request also waits for the database to start; it counts for 198.51.100.0.
    expect((await host.fetch("/healthz", { headers: { "x-forwarded-for": "198.51.100.0" } })).status).toBe(200)
    const from = (address: string) => host.fetch("/healthz", { headers: { "x-forwarded-for": address } })
    const first = [(await from("198.51.100.1")).status, (await from("198.51.100.1")).status, (await from("198.51.100.1")).status]
    expect(first).toEqual([200, 200, 429])
    expect((await from("198.51.100.2")).status).toBe(200)
  })
})
