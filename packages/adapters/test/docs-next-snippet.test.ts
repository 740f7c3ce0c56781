import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

// Keep each web handler the snippet builds, to release its database before the directory goes.
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

// The Next.js route module of docs/embedding.md, exactly as written: the ```ts block that starts
// with its comment.
const docsNextSnippet = (): string => {
  const page = readFileSync(new URL("../../../docs/embedding.md", import.meta.url), "utf8")
  const blocks = [...page.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "")
  const next = blocks.filter((block) => block.startsWith("// Next.js App Router"))
  expect(next).toHaveLength(1)
  return next[0] ?? ""
}

interface RouteModule {
  readonly GET: (request: Request) => Promise<Response>
}

const isRouteModule = (module: unknown): module is RouteModule =>
  typeof module === "object" && module !== null && "GET" in module && typeof module.GET === "function"

// A fresh app directory: `next dev` runs there, so the snippet's default `.data/signcraft` lands in it.
const appDir = mkdtempSync(join(tmpdir(), "signcraft-docs-next-"))
const startDir = process.cwd()
let route: RouteModule

beforeAll(async () => {
  vi.stubEnv("BASE_URL", undefined)
  vi.stubEnv("OPERATOR_TOKEN", undefined)
  vi.stubEnv("DATABASE_SCHEMA", undefined)
  const routeFile = join(appDir, "app", "signs", "[...signcraft]", "route.ts")
  mkdirSync(join(routeFile, ".."), { recursive: true })
  writeFileSync(routeFile, docsNextSnippet())
  process.chdir(appDir)
  const module: unknown = await import(routeFile)
  if (!isRouteModule(module)) throw new Error("the Next.js snippet of docs/embedding.md exports no GET")
  route = module
})

afterAll(async () => {
  for (const dispose of built.disposers) await dispose()
  process.chdir(startDir)
  vi.unstubAllEnvs()
  rmSync(appDir, { recursive: true, force: true })
})

// Next.js hands the route module the request as the browser sent it, folder and all.
const get = (path: string) => route.GET(new Request(`http://localhost:3000${path}`))

describe("the Next.js route module of docs/embedding.md with BASE_URL unset", () => {
  it("answers /signs/healthz", async () => {
    const response = await get("/signs/healthz")
    expect(response.status).toBe(200)
  })

  it("serves the OpenAPI document with links under next dev's address, none of them 'undefined'", async () => {
    const response = await get("/signs/api/v3/openapi.json")
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain("undefined")
    const document: unknown = JSON.parse(text)
    expect(document).toMatchObject({ servers: [expect.objectContaining({ url: "http://localhost:3000/signs" })] })
  })
})
