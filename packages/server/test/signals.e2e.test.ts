import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { freePort, openSlowRequest, REPO_ROOT, waitForHealthy, within } from "./support/server-process.js"

// `npm start` as a person runs it: npm, the `signcraft` shim and the server, three processes. A
// SIGTERM may reach npm alone, or the whole process group at once (Ctrl-C, systemd), which hands
// the server the same signal twice: directly and through the shim.

const OPERATOR_TOKEN = `op_${Math.random().toString(36).slice(2)}_signals`
const dataDir = mkdtempSync(join(tmpdir(), "signcraft-signals-"))
const started: Array<ChildProcess> = []

const npmStart = async () => {
  const port = await freePort()
  // detached: npm leads a process group of its own, which the test can signal as a whole.
  const child = spawn("npm", ["start"], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // A minimal environment, as startServer gives: vitest's own (BASE_URL=/, for one) is not a deployment's.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), DATA_DIR: dataDir, OPERATOR_TOKEN, SIGNCRAFT_ENV: "development" }
  })
  started.push(child)
  let output = ""
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk
    })
  }
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")))
  const base = `http://127.0.0.1:${port}`
  await waitForHealthy(`${base}/healthz`, () => {}, 90_000).catch((error: unknown) => {
    throw new Error(`npm start did not become healthy: ${String(error)}\noutput:\n${output}`)
  })
  return { child, port, base, exited, output: () => output }
}

// Whether nothing listens on the port any more: every process of the three has let go of it.
const refusedWithin = async (url: string, ms: number) => {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      await fetch(url)
    } catch {
      return true
    }
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

afterAll(() => {
  for (const child of started) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL")
      } catch {
        // Already gone.
      }
    }
  }
  rmSync(dataDir, { recursive: true, force: true })
})

describe("npm start and signals", () => {
  it("finishes a request in flight when the whole process group gets SIGTERM, and exits 0", async () => {
    const server = await npmStart()
    const slow = await openSlowRequest(server.port, "/operator/v1/companies", JSON.stringify({ name: "In Flight" }), OPERATOR_TOKEN)
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(-(server.child.pid ?? 0), "SIGTERM")
    const raw = await slow.finish()
    expect(raw.startsWith("HTTP/1.1 201"), server.output()).toBe(true)
    expect(await within(server.exited, 20_000, "npm start's exit")).toBe(0)
    expect(server.output()).not.toMatch(/force|did not finish/)
    expect(await refusedWithin(`${server.base}/healthz`, 5_000)).toBe(true)
  }, 180_000)

  it("stops the server when SIGTERM reaches the npm process alone", async () => {
    const server = await npmStart()
    process.kill(server.child.pid ?? 0, "SIGTERM")
    await within(server.exited, 20_000, "npm start's exit")
    expect(await refusedWithin(`${server.base}/healthz`, 15_000)).toBe(true)
  }, 180_000)
})
