import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postJsonDelivery } from "../src/services/delivery-http.js"

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

const post = (path: string, environment: "test" | "production" = "test", timeoutMs?: number) =>
  Effect.runPromiseExit(postJsonDelivery({
    url: `${base}${path}`,
    body: "{\"a\":1}",
    headers: { "x-webhook-topic": "product:created" },
    environment,
    ...(timeoutMs === undefined ? {} : { timeoutMs })
  }))

const failureReason = (exit: Exit.Exit<unknown, { reason: string }>) =>
  Exit.isFailure(exit) ? exit.cause.reasons.map((r) => ("error" in r ? (r.error as { reason: string }).reason : r._tag)) : []

describe("postJsonDelivery", () => {
  it("POSTs the JSON body with the given headers and returns the answer", async () => {
    const exit = await post("/ok")
    expect(Exit.isSuccess(exit) && exit.value).toEqual({ status: 200, body: JSON.stringify({ echo: "{\"a\":1}" }) })
    const last = seen[seen.length - 1]
    expect(last?.headers["x-webhook-topic"]).toBe("product:created")
    expect(last?.headers["content-type"]).toBe("application/json")
  })

  it("does not follow redirects", async () => {
    const before = seen.length
    const exit = await post("/redirect")
    expect(Exit.isSuccess(exit) && exit.value.status).toBe(307)
    expect(seen.length).toBe(before + 1)
  })

  it("refuses oversized answers and answers that never come", async () => {
    expect(failureReason(await post("/big"))).toEqual(["response_too_large"])
    expect(failureReason(await post("/hang", "test", 300))).toEqual(["timeout"])
  })

  it("refuses loopback targets in production before connecting", async () => {
    const before = seen.length
    expect(failureReason(await post("/ok", "production"))).toEqual(["refused_url"])
    expect(seen.length).toBe(before)
  })
})
