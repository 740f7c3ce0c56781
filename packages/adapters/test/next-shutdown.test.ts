import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

// The host process of signcraftNext (Next.js with NEXT_MANUAL_SIG_HANDLE=true) is told to stop:
// the embedded database closes before the process ends, leaving no postmaster.pid behind, so
// the next start runs no crash recovery.

const host = fileURLToPath(new URL("./support/next-host.ts", import.meta.url))
const root = fileURLToPath(new URL("../../../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "signcraft-next-shutdown-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = (dataDir: string) => {
  const child = spawn(process.execPath, ["--conditions=@signcraft/source", "--import", "tsx", host, dataDir], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk
    })
  }
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => {
      if (output.includes("ready 200")) resolve()
    })
    child.once("exit", () => reject(new Error(`the host exited before it was ready:\n${output}`)))
  })
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")))
  return { child, ready, exited, output: () => output }
}

describe("signcraftNext when its host process stops", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("closes the embedded database on %s and ends the process with 0", async (signal) => {
    const dataDir = join(dir, signal)
    const first = run(dataDir)
    await first.ready
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(true)
    first.child.kill(signal)
    expect(await first.exited, first.output()).toBe(0)
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(false)
  }, 120_000)
})
