import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, openSlowRequest, type ServerProcess, startServer, waitForHealthy, within } from "./support/server-process.js"

// The whole life of a server, in order: start on an empty directory, serve, shut down
// with a request in flight, start again on the same data.

const OPERATOR_TOKEN = `op_${Math.random().toString(36).slice(2)}_${Date.now()}`
const dataDir = mkdtempSync(join(tmpdir(), "signcraft-e2e-"))

interface Json {
  readonly [key: string]: unknown
}

// Every request id the first server answered, to match against its log lines.
const answered: Array<string> = []
const note = (response: Response) => {
  const id = response.headers.get("x-request-id")
  if (id !== null) answered.push(id)
}

const call = async (base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
  const headers: Record<string, string> = {}
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(base + path, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  note(response)
  const text = await response.text()
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Json }
}

const isRefused = async (url: string) => {
  try {
    const response = await fetch(url)
    note(response)
    return false
  } catch {
    return true
  }
}

let first: ServerProcess | undefined
let second: ServerProcess | undefined

afterAll(() => {
  first?.child.kill("SIGKILL")
  second?.child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

describe("signcraft serve", () => {
  let port = 0
  let base = ""
  let demoKey = ""
  let demoStoreId = 0
  let companyBeforeRestart = 0
  let companyInFlight = 0

  beforeAll(async () => {
    port = await freePort()
    base = `http://127.0.0.1:${port}`
    first = startServer(["serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      OPERATOR_TOKEN,
      SIGNCRAFT_ENV: "development"
    })
    await waitForHealthy(`${base}/healthz`, note, 90_000)
  }, 120_000)

  it("prints the listen URL, the documentation URL and a demo key", async () => {
    const server = first as ServerProcess
    const keyLine = await server.waitForLine(/API key\s+sk_test_/)
    demoKey = /(sk_test_[0-9A-Za-z]+)/.exec(keyLine)?.[1] ?? ""
    const banner = server.stdout().join("\n")
    expect(banner).toContain(`signcraft listening on http://127.0.0.1:${port}`)
    expect(banner).toContain(`http://localhost:${port}/docs`)
    expect(banner).toContain(`embedded, ${dataDir}`)
    expect(banner).toContain("demo@signcraft.test")
    expect(demoKey.length).toBeGreaterThan(40)
  })

  it("answers the demo key on GET /api/v3/stores/me", async () => {
    const { status, body } = await call(base, "GET", "/api/v3/stores/me", { token: demoKey })
    expect(status).toBe(200)
    const data = body.data as Json
    expect(typeof data.id).toBe("number")
    expect(data.platform).toBe("custom")
    expect(data.currency).toBe("USD")
    expect(data.mode).toBe("test")
    expect(data.scopes).toEqual(expect.arrayContaining(["store:read", "pricing:write", "webhooks:write"]))
    demoStoreId = data.id as number
  })

  it("serves the operator API with the operator token", async () => {
    expect((await call(base, "POST", "/operator/v1/companies", { body: { name: "No token" } })).status).toBe(401)
    const created = await call(base, "POST", "/operator/v1/companies", {
      token: OPERATOR_TOKEN,
      body: { name: "Before Restart" }
    })
    expect(created.status).toBe(201)
    companyBeforeRestart = created.body.id as number
    expect((await call(base, "GET", "/api/v3/stores/me", { token: `${demoKey}x` })).status).toBe(401)
    expect((await call(base, "GET", "/no/such/route")).status).toBe(404)
  })

  it("finishes a request in flight at SIGTERM, refuses new connections, and exits 0", async () => {
    const server = first as ServerProcess
    const slow = await openSlowRequest(port, "/operator/v1/companies", JSON.stringify({ name: "In Flight" }), OPERATOR_TOKEN)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const signalledAt = Date.now()
    server.child.kill("SIGTERM")

    // The listener closes at once; the request already received is still served.
    const deadline = Date.now() + 5000
    while (!(await isRefused(`${base}/healthz`)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(await isRefused(`${base}/healthz`)).toBe(true)

    const raw = await slow.finish()
    expect(raw.startsWith("HTTP/1.1 201")).toBe(true)
    const requestId = /x-request-id: (\S+)/i.exec(raw)?.[1]
    if (requestId !== undefined) answered.push(requestId)
    companyInFlight = (JSON.parse(raw.slice(raw.indexOf("{"))) as Json).id as number
    expect(companyInFlight).toBeGreaterThan(companyBeforeRestart)

    expect(await within(server.exited, 10_000, "shutdown")).toBe(0)
    expect(Date.now() - signalledAt).toBeLessThan(10_000)
  }, 120_000)

  it("logs one JSON line per request, without secrets", () => {
    const server = first as ServerProcess
    const records = server.stdout()
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Json)
    const requests = records.filter((record) => record.level === "info" && "request_id" in record)
    for (const record of requests) {
      expect(record).toEqual({
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        level: "info",
        request_id: expect.any(String),
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        duration_ms: expect.any(Number),
        // The Store a request acted for, once its API key was known.
        ...("store_id" in record ? { store_id: expect.any(Number) } : {})
      })
    }
    expect(requests.map((record) => record.request_id).sort()).toEqual([...answered].sort())
    expect(requests.find((record) => record.route === "/api/v3/stores/me")).toMatchObject({ method: "GET", status: 200 })

    const logText = server.stdout().filter((line) => line.startsWith("{")).join("\n") + server.stderr()
    expect(logText).not.toContain(demoKey)
    expect(logText).not.toContain(OPERATOR_TOKEN)
  })

  it("keeps its data across a restart and creates no second demo set", async () => {
    port = await freePort()
    base = `http://127.0.0.1:${port}`
    second = startServer([], {
      PORT: String(port),
      DATA_DIR: dataDir,
      OPERATOR_TOKEN,
      SIGNCRAFT_ENV: "development"
    })
    await waitForHealthy(`${base}/healthz`, () => {}, 90_000)
    const server = second
    await server.waitForLine(/signcraft listening on/)
    expect(server.stdout().join("\n")).not.toMatch(/Demo data|sk_test_/)

    const me = await call(base, "GET", "/api/v3/stores/me", { token: demoKey })
    expect(me.status).toBe(200)
    expect((me.body.data as Json).id).toBe(demoStoreId)

    // A store can be created only under an existing company.
    for (const companyId of [companyBeforeRestart, companyInFlight]) {
      const store = await call(base, "POST", "/operator/v1/stores", {
        token: OPERATOR_TOKEN,
        body: { company_id: companyId, name: "After Restart" }
      })
      expect(store.status).toBe(201)
    }
    const missing = await call(base, "POST", "/operator/v1/stores", {
      token: OPERATOR_TOKEN,
      body: { company_id: companyInFlight + 1000, name: "Nowhere" }
    })
    expect(missing.status).toBe(422)

    server.child.kill("SIGINT")
    expect(await within(server.exited, 10_000, "shutdown")).toBe(0)
  }, 120_000)
})

describe("signcraft command line", () => {
  it("exits 1 with every configuration error on stderr", async () => {
    const server = startServer(["serve", "--port", "abc"], { SIGNCRAFT_ENV: "prod", RATE_LIMIT_PER_IP_PER_MINUTE: "-1" })
    expect(await within(server.exited, 30_000, "exit")).toBe(1)
    expect(server.stderr().trim().split("\n")).toEqual([
      `signcraft: --port must be an integer from 1 to 65535, got "abc"`,
      `signcraft: SIGNCRAFT_ENV must be one of development, test, production, got "prod"`,
      `signcraft: RATE_LIMIT_PER_IP_PER_MINUTE must be a whole number of at least 1, got "-1"`
    ])
  }, 120_000)

  it("prints help", async () => {
    const server = startServer(["--help"], {})
    expect(await within(server.exited, 30_000, "exit")).toBe(0)
    expect(server.stdout().join("\n")).toContain("Usage: signcraft [serve] [options]")
  }, 120_000)
})
