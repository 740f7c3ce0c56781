import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  OUTBOUND_TIMEOUT_MS,
  OutboundHttp,
  type OutboundHttpOptions,
  type OutboundPolicy,
  outboundPolicy
} from "../src/services/outbound/outbound-http.js"

let server: Server
let base = ""
const seen: Array<{ path: string; body: string; headers: Record<string, unknown> }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8")
    })
    req.on("end", () => {
      seen.push({ path: req.url ?? "", body, headers: req.headers })
      if (req.url === "/redirect") {
        res.writeHead(307, { location: `${base}/ok` }).end()
      } else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "application/json" }).end("x".repeat(200_000))
      } else if (req.url === "/broken") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" }).write("{\"external_id\"")
        setTimeout(() => res.socket?.destroy(), 20)
      } else if (req.url === "/hang") {
        // never answers
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: body }))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const post = (path: string, policy: OutboundPolicy = outboundPolicy("test"), options: OutboundHttpOptions = {}) =>
  Effect.runPromiseExit(Effect.scoped(Effect.gen(function*() {
    const http = yield* OutboundHttp.make(policy, options)
    return yield* http.post(`${base}${path}`, { body: "{\"a\":1}", headers: { "x-webhook-topic": "product:created" } })
  })))

const failure = (exit: Exit.Exit<unknown, { reason: string; detail: string }>) =>
  Exit.isFailure(exit)
    ? exit.cause.reasons.map((r) => ("error" in r ? { reason: r.error.reason, detail: r.error.detail } : { reason: r._tag, detail: "" }))
    : []

describe("OutboundHttp", () => {
  it("POSTs the JSON body with the given headers and returns the whole answer", async () => {
    const exit = await post("/ok")
    expect(Exit.isSuccess(exit) && exit.value).toEqual({ status: 200, body: JSON.stringify({ echo: "{\"a\":1}" }), bodyRead: "whole" })
    const last = seen[seen.length - 1]
    expect(last?.headers["x-webhook-topic"]).toBe("product:created")
    expect(last?.headers["content-type"]).toBe("application/json")
    expect(last?.headers["user-agent"]).toBe("signcraft-webhooks/1")
  })

  it("does not follow redirects", async () => {
    const before = seen.length
    const exit = await post("/redirect")
    expect(Exit.isSuccess(exit) && exit.value.status).toBe(307)
    expect(seen.length).toBe(before + 1)
  })

  it("reads an oversized answer only up to the cap, and says so", async () => {
    const exit = await post("/big", outboundPolicy("test"), { maxResponseBytes: 1000 })
    expect(Exit.isSuccess(exit) && { status: exit.value.status, length: exit.value.body.length, read: exit.value.bodyRead })
      .toEqual({ status: 200, length: 1000, read: "capped" })
  })

  it("keeps the status of an answer whose body breaks off", async () => {
    const exit = await post("/broken")
    expect(Exit.isSuccess(exit) && { status: exit.value.status, read: exit.value.bodyRead }).toEqual({ status: 200, read: "broken" })
  })

  it("gives up on an answer that never comes, within one deadline of 10 s by default", async () => {
    expect(OUTBOUND_TIMEOUT_MS).toBe(10_000)
    expect(failure(await post("/hang", outboundPolicy("test"), { timeoutMs: 300 })))
      .toEqual([{ reason: "timeout", detail: "timeout after 300 ms" }])
  })

  it("reports a refused connection by its socket error code", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const exit = await Effect.runPromiseExit(Effect.scoped(Effect.gen(function*() {
      const http = yield* OutboundHttp.make(outboundPolicy("test"))
      return yield* http.post(`http://127.0.0.1:${port}/`, { body: "{}", headers: {} })
    })))
    expect(failure(exit)).toEqual([{ reason: "network", detail: "ECONNREFUSED" }])
  })

  it("refuses loopback targets in production before connecting", async () => {
    const before = seen.length
    expect(failure(await post("/ok", outboundPolicy("production"))).map((f) => f.reason)).toEqual(["refused_url"])
    expect(seen.length).toBe(before)
  })

  it("checks resolved addresses on connect in every environment, and allows a local receiver outside production", () => {
    for (const environment of ["production", "test", "development"] as const) expect(outboundPolicy(environment).lookup).toBeDefined()
    expect(Result.isSuccess(outboundPolicy("development").checkUrl("http://localhost:1/"))).toBe(true)
    expect(Result.isFailure(outboundPolicy("development").checkUrl("http://169.254.169.254/"))).toBe(true)
    expect(Result.isFailure(outboundPolicy("production").checkUrl("https://localhost/"))).toBe(true)
  })
})

describe("OutboundHttp on kept-alive sockets", () => {
  it("sends again on a new socket when a reused one is reset before any answer, and answers once", async () => {
    // Answers the first request of every connection and keeps it open; drops the connection
    // without a word on its second request, as a receiver does that closed an idle socket.
    const requestsPerSocket = new Map<object, number>()
    let received = 0
    const dropping = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        received++
        const socket = req.socket
        const count = (requestsPerSocket.get(socket) ?? 0) + 1
        requestsPerSocket.set(socket, count)
        if (count > 1) socket.destroy()
        else res.writeHead(200, { "content-type": "application/json", connection: "keep-alive" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/hook`
    try {
      const statuses = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const http = yield* OutboundHttp.make(outboundPolicy("test"))
        const first = yield* http.post(url, { body: "{}", headers: {} })
        const second = yield* http.post(url, { body: "{}", headers: {} })
        return [first.status, second.status]
      })))
      expect(statuses).toEqual([200, 200])
      // The second POST reached the dropped socket, then a new one.
      expect(received).toBe(3)
      expect(requestsPerSocket.size).toBe(2)
    } finally {
      dropping.closeAllConnections()
      await new Promise((resolve) => dropping.close(resolve))
    }
  })
})
