// Whether a checkout's build can stand in for its source: `signcraft` runs the build when it is
// at least as new as everything it was built from, since the build starts sooner and runs
// without the TypeScript loader's thread (tens of MB), and the source otherwise, so that an edit
// is never hidden behind a stale build.
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

/** The workspace packages the server runs, as folders of the repository. */
export const SERVER_PACKAGES = ["packages/core", "packages/client", "packages/server"]

// What a package's build is made from besides its source folder, and what every build shares.
const BUILD_INPUTS = ["package.json", "tsup.config.ts", "tsconfig.dts.json"]
const SHARED_BUILD_INPUTS = ["tsup.base.ts", "tsconfig.build.json", "tsconfig.base.json"]

// The modification times of those of `paths` that exist.
const timesOf = (paths) => paths.filter((path) => existsSync(path)).map((path) => ({ name: path, mtimeMs: statSync(path).mtimeMs }))

// Every file under `dir`, with its modification time; with `folders`, every folder too (the folder
// itself included), whose time changes when a file in it is added, removed or renamed.
const entriesUnder = (dir, folders) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() || (folders && entry.isDirectory()))
    .map((entry) => ({ name: entry.name, mtimeMs: statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs }))
    .concat(folders ? [{ name: dir, mtimeMs: statSync(dir).mtimeMs }] : [])

/**
 * Whether every package's built JavaScript is at least as new as every file it is built from,
 * and as every source folder (so a source file removed since the build makes it stale too).
 */
export const isBuildFresh = (root, packages = SERVER_PACKAGES) =>
  packages.every((pkg) => {
    const dist = join(root, pkg, "dist")
    const src = join(root, pkg, "src")
    if (!existsSync(dist) || !existsSync(src)) return false
    const built = entriesUnder(dist, false).filter((file) => file.name.endsWith(".js"))
    if (built.length === 0) return false
    const inputs = [
      ...entriesUnder(src, true),
      ...timesOf(BUILD_INPUTS.map((name) => join(root, pkg, name))),
      ...timesOf(SHARED_BUILD_INPUTS.map((name) => join(root, name)))
    ]
    const oldestBuilt = Math.min(...built.map((file) => file.mtimeMs))
    return inputs.every((file) => file.mtimeMs <= oldestBuilt)
  })
