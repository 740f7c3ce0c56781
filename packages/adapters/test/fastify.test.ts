import Fastify from "fastify"
import { describe, expect, it } from "vitest"
import { signcraftFastify, type WebHandler } from "../src/index.js"
import { makeEcho } from "./support/echo.js"
import { describeHost } from "./support/host-suite.js"

const startFastify = async (handler: WebHandler, options: { readonly trustProxy?: boolean; readonly prefix?: string } = {}) => {
  // Close drops every connection: Fastify otherwise waits out a 72 s keep-alive on one a client aborted.
  const fastify = Fastify({ trustProxy: options.trustProxy ?? false, forceCloseConnections: true })
  // A JSON route of the host's own: its parser must keep working outside signcraft's scope.
  fastify.post("/host-route", async (request) => ({ received: request.body }))
  fastify.get("/host-route", async (_request, reply) => reply.type("text/plain").send("the host's own route"))
  if (options.prefix !== undefined) fastify.get("/api/v3/stores/me", async () => ({ host: true }))
  await fastify.register(signcraftFastify(handler), options.prefix === undefined ? {} : { prefix: options.prefix })
  await fastify.listen({ host: "127.0.0.1", port: 0 })
  const address = fastify.server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    fetch: (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${path}`, init),
    port,
    close: () => fastify.close()
  }
}

describeHost({
  name: "Fastify",
  start: (handler) => startFastify(handler),
  startUnder: (handler, prefix) => startFastify(handler, { prefix }),
  client: { headers: {}, expected: "127.0.0.1" },
  listens: true
})

describe("Fastify: mounting", () => {
  it("keeps the host's body parsing outside signcraft's scope", async () => {
    const host = await startFastify(makeEcho().handler)
    try {
      const res = await host.fetch("/host-route", { method: "POST", headers: { "content-type": "application/json" }, body: "{\"a\":1}" })
      expect(await res.json()).toEqual({ received: { a: 1 } })
    } finally {
      await host.close()
    }
  })

  it("takes the client's address from request.ip, so `trustProxy` decides", async () => {
    const echo = makeEcho()
    const host = await startFastify(echo.handler, { trustProxy: true })
    try {
      const res = await host.fetch("/who", { headers: { "x-forwarded-for": "203.0.113.9" } })
      expect(res.headers.get("x-echo-client")).toBe("203.0.113.9")
    } finally {
      await host.close()
    }
  })
})
