import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { REPO_ROOT } from "./support/server-process.js"

// The `signcraft` bin works right after `npm install` in a checkout: it runs the source (no
// build needed), and hands back the command's exit code.
describe("the signcraft bin in a checkout", () => {
  const run = (args: ReadonlyArray<string>) =>
    spawnSync(process.execPath, ["packages/server/bin/signcraft.js", ...args], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 })

  it("prints help from the source and exits 0", () => {
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
