import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { REPO_ROOT } from "./support/server-process.js"

// The `signcraft` bin works right after `npm install` in a checkout (it runs the source, or a
// fresh build: fresh-build.e2e.test.ts), and hands back the command's exit code.
describe("the signcraft bin in a checkout", () => {
  const run = (args: ReadonlyArray<string>) =>
    spawnSync(process.execPath, ["packages/server/bin/signcraft.js", ...args], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 })

  it("prints help and exits 0", () => {
    const result = run(["--help"])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("Usage: signcraft")
  })

  it("passes the command's exit code on", () => {
    const result = run(["no-such-command"])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('Unknown command "no-such-command"')
  })
})

// The server runs with a bounded heap, so its peak memory stays within what a small host has
// (docs/configuration.md), unless NODE_OPTIONS sizes it.
describe("the server's heap flags", () => {
  it("bound the old and young generations", async () => {
    const { serverNodeFlags } = await import("../bin/node-flags.js")
    expect(serverNodeFlags("")).toEqual(["--max-old-space-size=256", "--max-semi-space-size=8"])
  })

  it("leave a heap size NODE_OPTIONS sets to NODE_OPTIONS", async () => {
    const { serverNodeFlags } = await import("../bin/node-flags.js")
    expect(serverNodeFlags("--max-old-space-size=2048")).toEqual(["--max-semi-space-size=8"])
  })

  it("reach the server the bin starts", () => {
    // A heap limit is visible as the limit V8 reports; --help is enough to start the server's process.
    const result = spawnSync(process.execPath, ["packages/server/bin/signcraft.js", "--help"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: "--require ./packages/server/test/support/print-heap-limit.cjs" }
    })
    expect(result.status).toBe(0)
    const limits = [...result.stderr.matchAll(/heap limit (\d+) MB/g)].map((match) => Number(match[1]))
    // The bin's own process has Node's default limit; the server's child has the bounded one.
    expect(Math.min(...limits)).toBeLessThanOrEqual(256 + 64)
  })
})
