import { spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const here = dirname(fileURLToPath(import.meta.url))

// check.mjs as CI's packed-tarball leg runs it, but over the packages' source: a child `node` does
// not see vitest's aliases, so it resolves them by the packages' `@signcraft/source` condition.
const runCheck = () =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve, reject) => {
    const env = { ...process.env }
    // The embedded database: the check stays independent of whatever PostgreSQL the suite runs with.
    delete env.DATABASE_URL
    const child = spawn(process.execPath, ["--conditions=@signcraft/source", "--import", "tsx", join(here, "check.mjs")], {
      cwd: here,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.once("error", reject)
    child.once("exit", (code) => resolve({ code, output }))
  })

describe("examples/express-host", () => {
  it("keeps the host's /api routes and serves signcraft under /signs only (check.mjs)", { timeout: 180_000 }, async () => {
    const result = await runCheck()
    expect(result.output).toContain("express-host: every check passed")
    expect(result.code).toBe(0)
  })
})
