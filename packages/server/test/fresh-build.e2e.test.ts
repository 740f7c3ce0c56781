import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { isBuildFresh, SERVER_PACKAGES } from "../bin/fresh-build.js"
import { REPO_ROOT } from "./support/server-process.js"

// A checkout in miniature: each server package with a source file and a build, the bin's own
// files, and the repository's node_modules (for tsx). Each bin entry says which one ran.
const roots: Array<string> = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const T0 = new Date("2026-01-01T00:00:00Z")
const LATER = new Date("2026-01-01T00:01:00Z")

const write = (root: string, path: string, text: string, at: Date) => {
  const file = join(root, path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  utimesSync(file, at, at)
}

// Source written at T0 and the build a minute later: a fresh build.
const checkout = () => {
  const root = mkdtempSync(join(tmpdir(), "signcraft-fresh-build-"))
  roots.push(root)
  for (const pkg of SERVER_PACKAGES) {
    write(root, `${pkg}/package.json`, `{"type":"module"}`, T0)
    write(root, `${pkg}/src/index.ts`, "export {}\n", T0)
    write(root, `${pkg}/dist/index.js`, "export {}\n", LATER)
  }
  for (const shared of ["tsup.base.ts", "tsconfig.build.json", "tsconfig.base.json"]) write(root, shared, "{}", T0)
  write(root, "packages/server/src/bin.ts", `process.stdout.write("ran the source")\n`, T0)
  write(root, "packages/server/dist/bin.js", `process.stdout.write("ran the build")\n`, LATER)
  for (const name of ["signcraft.js", "fresh-build.js", "node-flags.js"]) {
    mkdirSync(join(root, "packages/server/bin"), { recursive: true })
    copyFileSync(join(REPO_ROOT, "packages/server/bin", name), join(root, "packages/server/bin", name))
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"))
  // Folders made above carry the time they were made: set the source ones to T0 as well.
  for (const pkg of SERVER_PACKAGES) utimesSync(join(root, pkg, "src"), T0, T0)
  return root
}

const runBin = (root: string) =>
  spawnSync(process.execPath, [join(root, "packages/server/bin/signcraft.js")], { cwd: root, encoding: "utf8", timeout: 60_000 })

describe("a checkout's build", () => {
  it("is fresh when every package's JavaScript is newer than everything it is built from", () => {
    expect(isBuildFresh(checkout())).toBe(true)
  })

  it("is stale once any source file of any package is newer", () => {
    for (const pkg of SERVER_PACKAGES) {
      const root = checkout()
      write(root, `${pkg}/src/nested/edited.ts`, "export {}\n", new Date(LATER.getTime() + 1000))
      expect(isBuildFresh(root)).toBe(false)
    }
  })

  it("is stale once a source file has been removed since the build", () => {
    const root = checkout()
    write(root, "packages/core/src/nested/removed.ts", "export {}\n", T0)
    utimesSync(join(root, "packages/core/src/nested"), T0, T0)
    utimesSync(join(root, "packages/core/src"), T0, T0)
    expect(isBuildFresh(root)).toBe(true)
    rmSync(join(root, "packages/core/src/nested/removed.ts"))
    expect(isBuildFresh(root)).toBe(false)
  })

  it("is stale once a package's manifest or build configuration, or the shared one, is newer", () => {
    for (const path of ["packages/core/package.json", "packages/core/tsup.config.ts", "packages/core/tsconfig.dts.json", "tsup.base.ts", "tsconfig.build.json", "tsconfig.base.json"]) {
      const root = checkout()
      write(root, path, "{}", new Date(LATER.getTime() + 1000))
      expect(isBuildFresh(root)).toBe(false)
    }
  })

  it("is stale when a file of the build is older than the source, or a package has no build", () => {
    const older = checkout()
    write(older, "packages/client/dist/chunk.js", "export {}\n", new Date(T0.getTime() - 1000))
    expect(isBuildFresh(older)).toBe(false)
    const unbuilt = checkout()
    rmSync(join(unbuilt, "packages/core/dist"), { recursive: true })
    expect(isBuildFresh(unbuilt)).toBe(false)
  })
})

describe("the signcraft bin in a checkout", () => {
  it("runs a fresh build", () => {
    const result = runBin(checkout())
    expect(result.stderr).toBe("")
    expect(result.stdout).toBe("ran the build")
  })

  it("runs the source through tsx when the build is stale", () => {
    const root = checkout()
    write(root, "packages/core/src/index.ts", "export const edited = true\n", new Date(LATER.getTime() + 1000))
    const result = runBin(root)
    expect(result.stdout).toBe("ran the source")
  })
})
