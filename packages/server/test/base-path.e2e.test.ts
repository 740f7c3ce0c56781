import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, type ServerProcess, startServer, waitForHealthy } from "./support/server-process.js"

// `signcraft serve` with a path in BASE_URL, and the docs switched off: the reference server's
// listener (its fast reads included) serves only under the path.

const dataDir = mkdtempSync(join(tmpdir(), "signcraft-base-path-e2e-"))
let server: ServerProcess | undefined

afterAll(() => {
  server?.child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

describe("signcraft serve with BASE_URL http://127.0.0.1:PORT/signs and SIGNCRAFT_DISABLE=docs", () => {
  let origin = ""
  let base = ""

  beforeAll(async () => {
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    base = `${origin}/signs`
    server = startServer(["serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `${base}/`,
      DATA_DIR: dataDir,
      SIGNCRAFT_ENV: "development",
      SIGNCRAFT_DISABLE: "docs"
    })
    await waitForHealthy(`${base}/healthz`, () => {}, 90_000)
  }, 120_000)

  it("serves the demo key's Store under the path, again and again, and nothing outside it", async () => {
    const line = await (server as ServerProcess).waitForLine(/Authorization: Bearer \S+"/)
    const key = /Bearer (\S+)"/.exec(line)?.[1] ?? ""
    expect(line).toContain(`${base}/api/v3/stores/me`)
    // The first read verifies the key; the ones after it are the listener's fast reads.
    for (let round = 0; round < 3; round += 1) {
      const me = await fetch(`${base}/api/v3/stores/me`, { headers: { authorization: `Bearer ${key}` } })
      expect(me.status).toBe(200)
      expect((await me.json()).links.self).toBe(`${base}/api/v3/stores/me`)
    }
    const outside = await fetch(`${origin}/api/v3/stores/me`, { headers: { authorization: `Bearer ${key}` } })
    expect(outside.status).toBe(404)
    expect((await outside.json()).code).toBe("not_found")
    expect((await fetch(`${origin}/healthz`)).status).toBe(404)
  })

  it("answers the metadata where RFC 8414 puts it for the path, and 404 for the docs it switched off", async () => {
    expect((await (await fetch(`${origin}/.well-known/oauth-authorization-server/signs`)).json()).issuer).toBe(base)
    expect((await fetch(`${base}/docs`)).status).toBe(404)
    expect((await (await fetch(`${base}/api/v3/openapi.json`)).json()).servers).toEqual([{ url: base }])
  })
})
