import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"

// Count the web handlers signcraftNext builds, without changing what they do.
const built = vi.hoisted(() => ({ count: 0, disposers: [] as Array<() => Promise<void>> }))
vi.mock("@signcraft/core", async (importOriginal) => {
  const core = await importOriginal<typeof import("@signcraft/core")>()
  return {
    ...core,
    makeWebHandler: (...args: Parameters<typeof core.makeWebHandler>) => {
      built.count += 1
      const made = core.makeWebHandler(...args)
      built.disposers.push(made.dispose)
      return made
    }
  }
})

const { signcraftNext } = await import("../src/index.js")

const dir = mkdtempSync(join(tmpdir(), "signcraft-next-"))
afterAll(async () => {
  for (const dispose of built.disposers) await dispose()
  rmSync(dir, { recursive: true, force: true })
})

const get = (routes: ReturnType<typeof signcraftNext>, path: string) => routes.GET(new Request(`http://localhost:3000${path}`))

const createCompany = (token: string) =>
  new Request("http://localhost:3000/operator/v1/companies", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Acme" })
  })

describe("signcraftNext", () => {
  it("opens nothing when the route module is evaluated (next build), one database per directory on the first request, and reuses it across reloads", async () => {
    const options = { settings: { operatorToken: "a-plain-string-token-of-some-length" }, dataDir: join(dir, "a") }
    const first = signcraftNext(options)
    // `next dev` re-evaluates the module on every reload: a second call with the same directory.
    const reloaded = signcraftNext(options)
    expect(built.count).toBe(0)

    expect((await get(first, "/healthz")).status).toBe(200)
    expect((await get(reloaded, "/healthz")).status).toBe(200)
    expect(built.count).toBe(1)

    // A plain-string operator token works (no `Redacted` from the host's copy of effect).
    const operator = await first.POST(createCompany("a-plain-string-token-of-some-length"))
    expect(operator.status).toBe(201)

    const other = signcraftNext({ dataDir: join(dir, "b") })
    expect((await get(other, "/healthz")).status).toBe(200)
    expect(built.count).toBe(2)
  })

  it("refuses a schema that is not a plain SQL identifier, answering with the reason", async () => {
    const routes = signcraftNext({ dataDir: join(dir, "d"), databaseSchema: "Not-A-Schema" })
    await expect(get(routes, "/healthz")).rejects.toThrow('databaseSchema must be a lower-case SQL identifier')
  })

  it("leaves the operator API off when the token is an empty string (an unset variable)", async () => {
    const routes = signcraftNext({ settings: { operatorToken: "" }, dataDir: join(dir, "c") })
    const response = await routes.POST(createCompany(""))
    expect(response.status).toBe(404)
  })
})
