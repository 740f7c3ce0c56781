import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const tracer = fileURLToPath(new URL("../../../bench/import-cost/child.mjs", import.meta.url))

// The packages a light entry must never load: database drivers, the agent SDK, the token signer.
const HEAVY = ["@electric-sql/pglite", "pg", "@effect/sql-pg", "@modelcontextprotocol/sdk", "jose"]

/** Every module a fresh Node process loads to import `specifier`, from source (as the tests run it). */
const modulesLoadedBy = async (specifier: string): Promise<ReadonlyArray<string>> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--conditions=@signcraft/source", "--import", "tsx", tracer, "--trace", specifier],
    { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }
  )
  const { modules } = JSON.parse(stdout) as { readonly modules: ReadonlyArray<string> }
  return modules
}

const heavyIn = (modules: ReadonlyArray<string>): ReadonlyArray<string> =>
  modules.filter((url) => HEAVY.some((name) => url.includes(`/node_modules/${name}/`)))

describe("what each entry of @signcraft/core loads", () => {
  it("the domain entry loads none of the database, agent or token packages", async () => {
    const modules = await modulesLoadedBy("@signcraft/core/domain")
    expect(modules.some((url) => url.endsWith("/packages/core/src/domain.ts"))).toBe(true)
    expect(heavyIn(modules)).toEqual([])
    expect(modules.filter((url) => /\/packages\/core\/src\/(storage|services|http|agent|app)\//.test(url))).toEqual([])
  })

  it("the API definition loads none of them, and no storage or service module", async () => {
    const modules = await modulesLoadedBy("@signcraft/core/api")
    expect(modules.some((url) => url.endsWith("/packages/core/src/http/api/index.ts"))).toBe(true)
    expect(heavyIn(modules)).toEqual([])
    expect(modules.filter((url) => /\/packages\/core\/src\/(storage|services|agent|app)\//.test(url))).toEqual([])
  })

  it("the root entry loads PGlite only once the embedded database is opened", async () => {
    const modules = await modulesLoadedBy("@signcraft/core")
    expect(heavyIn(modules).some((url) => url.includes("/@modelcontextprotocol/sdk/"))).toBe(true)
    expect(modules.filter((url) => url.includes("/node_modules/@electric-sql/pglite/"))).toEqual([])
  })
})
