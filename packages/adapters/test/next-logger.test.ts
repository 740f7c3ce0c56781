import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"

// Keep each web handler signcraftNext builds, to release its database before the directory goes.
const built = vi.hoisted(() => ({ disposers: [] as Array<() => Promise<void>> }))
vi.mock("@signcraft/core", async (importOriginal) => {
  const core = await importOriginal<typeof import("@signcraft/core")>()
  return {
    ...core,
    makeWebHandler: (...args: Parameters<typeof core.makeWebHandler>) => {
      const made = core.makeWebHandler(...args)
      built.disposers.push(made.dispose)
      return made
    }
  }
})

const { signcraftNext } = await import("../src/index.js")

const dir = mkdtempSync(join(tmpdir(), "signcraft-next-log-"))
afterAll(async () => {
  for (const dispose of built.disposers) await dispose()
  rmSync(dir, { recursive: true, force: true })
})
afterEach(() => vi.restoreAllMocks())

const healthz = (routes: ReturnType<typeof signcraftNext>) => routes.GET(new Request("http://localhost:3000/healthz"))

// The lines written to stdout while `run` runs, parsed where they are JSON.
const stdoutDuring = async (run: () => Promise<Response>) => {
  const written: Array<string> = []
  const original = process.stdout.write.bind(process.stdout)
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"))
    return original(chunk)
  })
  const response = await run()
  vi.restoreAllMocks()
  const records = written.join("").split("\n").flatMap((line): Array<Record<string, unknown>> => {
    try {
      const parsed: unknown = JSON.parse(line)
      return typeof parsed === "object" && parsed !== null ? [parsed as Record<string, unknown>] : []
    } catch {
      return []
    }
  })
  return { response, records }
}

describe("signcraftNext logger", () => {
  it("writes one JSON line per request to stdout by default", async () => {
    const routes = signcraftNext({ dataDir: join(dir, "default"), deliverWebhooks: false })
    await healthz(routes) // opens and migrates the database outside the window watched below
    const { response, records } = await stdoutDuring(() => healthz(routes))
    const requestId = response.headers.get("x-request-id")
    const lines = records.filter((record) => record.request_id === requestId)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: "info", method: "GET", route: "/healthz", status: 200 })
    expect(typeof lines[0]?.duration_ms).toBe("number")
    expect(Number.isNaN(Date.parse(String(lines[0]?.time)))).toBe(false)
  })

  it("hands each line to a custom logger instead, and writes nothing to stdout", async () => {
    const seen: Array<Readonly<Record<string, string | number>>> = []
    const routes = signcraftNext({ dataDir: join(dir, "custom"), deliverWebhooks: false, logger: (line) => seen.push(line) })
    const { response, records } = await stdoutDuring(() => healthz(routes))
    const requestId = response.headers.get("x-request-id")
    expect(records.filter((record) => record.request_id === requestId)).toEqual([])
    expect(seen.filter((line) => line.request_id === requestId)).toEqual([
      expect.objectContaining({ level: "info", method: "GET", route: "/healthz", status: 200 })
    ])
  })

  it("writes nothing when the logger is false", async () => {
    const routes = signcraftNext({ dataDir: join(dir, "silent"), deliverWebhooks: false, logger: false })
    const { response, records } = await stdoutDuring(() => healthz(routes))
    expect(response.status).toBe(200)
    expect(records.filter((record) => "request_id" in record)).toEqual([])
  })
})
