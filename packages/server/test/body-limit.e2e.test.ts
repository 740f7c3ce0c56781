import { mkdtempSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, type ServerProcess, startServer, waitForHealthy } from "./support/server-process.js"

// docs/input-handling.md: an oversized body is a 413 that closes its connection, so the
// client's next request on a kept-alive agent goes on a fresh socket instead of meeting a
// reset one. Driven against the real server over a real socket, chunked (no Content-Length).

const dataDir = mkdtempSync(join(tmpdir(), "signcraft-body-limit-"))
let server: ServerProcess
let port = 0

const send = (agent: Agent, method: string, path: string, chunks: ReadonlyArray<string>) =>
  new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, agent, headers: chunks.length > 0 ? { "content-type": "application/json" } : {} },
      (res) => {
        let body = ""
        res.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk
        })
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }))
      }
    )
    // The server may answer and close before the whole body is written; that is the point.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error)
    })
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })

beforeAll(async () => {
  port = await freePort()
  server = startServer(["serve"], { PORT: String(port), DATA_DIR: dataDir, SIGNCRAFT_ENV: "test" })
  await waitForHealthy(`http://127.0.0.1:${port}/healthz`, () => {}, 120_000)
})

afterAll(async () => {
  server.child.kill("SIGTERM")
  await server.exited
  rmSync(dataDir, { recursive: true, force: true })
})

describe("a chunked body over the limit", () => {
  it("answers 413 with Connection: close, and the next request on the same agent succeeds", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const piece = `"${"x".repeat(64 * 1024)}",`
      const chunks = ["[", ...Array.from({ length: 20 }, () => piece), "1]"]
      const refused = await send(agent, "POST", "/api/v3/webhook-subscriptions", chunks)
      expect(refused.status).toBe(413)
      expect(refused.connection).toBe("close")
      expect(JSON.parse(refused.body).code).toBe("payload_too_large")
      const next = await send(agent, "GET", "/healthz", [])
      expect(next.status).toBe(200)
    } finally {
      agent.destroy()
    }
  })
})
