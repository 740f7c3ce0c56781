// `npm pack` / `npm publish` of a workspace package (its prepack and postpack scripts):
// `strip` drops the `@signcraft/source` export conditions, which point at TypeScript source
// the tarball does not ship, keeping the original as .package.json.unpacked; `restore` puts
// the original back. Run from the package's directory.
import { existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs"

const MANIFEST = "package.json"
const BACKUP = ".package.json.unpacked"
const SOURCE_CONDITION = "@signcraft/source"

const withoutSourceCondition = (exportsField) =>
  Object.fromEntries(
    Object.entries(exportsField).map(([subpath, conditions]) => [
      subpath,
      Object.fromEntries(Object.entries(conditions).filter(([condition]) => condition !== SOURCE_CONDITION))
    ])
  )

const command = process.argv[2]
if (command === "strip") {
  // A pack that failed after stripping left the backup behind: it is the original.
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST)
  const original = readFileSync(MANIFEST, "utf8")
  const manifest = JSON.parse(original)
  writeFileSync(BACKUP, original)
  // The restored manifest keeps its times: the server's fresh-build check compares them with dist.
  const { atime, mtime } = statSync(MANIFEST)
  utimesSync(BACKUP, atime, mtime)
  if (manifest.exports !== undefined) manifest.exports = withoutSourceCondition(manifest.exports)
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`)
} else if (command === "restore") {
  if (!existsSync(BACKUP)) throw new Error(`${BACKUP} is missing: nothing to restore`)
  renameSync(BACKUP, MANIFEST)
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore")
  process.exit(2)
}
