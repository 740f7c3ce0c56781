import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, type TestDatabase } from "@signcraft/test-kit"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"
import { REPO_ROOT, SOURCE_NODE_FLAGS } from "../support/server-process.js"

/** Runs `signcraft` from source to completion: exit code, stdout, stderr. */
const signcraft = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, "packages/server/src/bin.ts", ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("the signcraft command's integrator subcommands (a real process)", () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  const dir = mkdtempSync(join(tmpdir(), "signcraft-bin-"))
  beforeAll(async () => {
    db = await embeddedVariant.create()
    server = await startLoopbackServer(db.config)
  })
  afterAll(async () => {
    await server?.dispose()
    await db?.cleanup()
    rmSync(dir, { recursive: true, force: true })
  })

  it("check prints JSON on stdout and exits 0", async () => {
    const seed = await server.seedStore({ scopes: ["store:read"] })
    const result = await signcraft(["check", "--base-url", server.url, "--json"], { SIGNCRAFT_API_KEY: seed.key })
    expect(result).toMatchObject({ code: 0, stderr: "" })
    expect(JSON.parse(result.stdout)).toEqual({ id: seed.storeId, platform: "custom", scopes: ["store:read"] })
  })

  it("diagnose rate-limit exits 2 without a key, sending nothing", async () => {
    const result = await signcraft(["diagnose", "rate-limit", "--base-url", server.url])
    expect(result).toEqual({ code: 2, stdout: "", stderr: "signcraft: SIGNCRAFT_API_KEY is not set\n" })
  })

  it("migrate translate exits 1 naming the file and the field", async () => {
    const path = join(dir, "order.json")
    writeFileSync(path, JSON.stringify({ order_id: "1", products: [] }))
    const result = await signcraft(["migrate", "translate", "--from", "legacy-order", path])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toBe(`signcraft: ${path}: /order_number: This field is required.\n`)
  })

  it("documents the subcommands in --help, and exits 2 on a usage error", async () => {
    const help = await signcraft(["--help"])
    expect(help.code).toBe(0)
    for (const command of ["check --base-url", "diagnose rate-limit", "migrate translate --from", "migrate usage"]) {
      expect(help.stdout).toContain(command)
    }
    expect((await signcraft(["migrate", "translate"])).code).toBe(2)
  })
})
