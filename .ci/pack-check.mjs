// The packages as a user gets them, checked outside the repository (run after `npm run build`):
// each package under packages/ is packed with `npm pack`, its tarball is inspected, and the
// tarballs are installed into empty projects in a temporary directory, where
//   - `tsc --noEmit` passes on a file importing every export of every package;
//   - the Express host example (examples/express-host: check.mjs starts app.mjs) passes;
//   - the v2 migration script (examples/migrate-v2/translate.mjs) passes on @signcraft/core/domain;
//   - @signcraft/core/domain and /api load no database driver, agent SDK or token signer;
//   - a project holding only @signcraft/client has none of those packages installed, and the
//     client imports and constructs.
// DATABASE_URL, when set, is passed to the Express host. Any step that fails or cannot run fails
// the whole check: nothing is skipped. Prints the tarball sizes at the end.
import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const repo = resolve(fileURLToPath(new URL("..", import.meta.url)))
const PACKAGES = ["core", "adapters", "client", "server"]
const HEAVY = ["@electric-sql/pglite", "pg", "@effect/sql-pg", "@modelcontextprotocol/sdk", "jose"]
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

const fail = (message) => {
  console.error(`pack-check: FAILED: ${message}`)
  process.exit(1)
}

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"))

const run = (command, args, options) => {
  try {
    return execFileSync(command, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...options })
  } catch (error) {
    const output = [error.stdout, error.stderr].filter(Boolean).join("\n")
    fail(`${command} ${args.join(" ")} (in ${options?.cwd ?? process.cwd()}) exited ${error.status ?? error.code}\n${output}`)
  }
}

const step = (title) => console.log(`== pack-check: ${title}`)

// The versions the repository uses, so the temporary projects match it.
const rootManifest = readJson(join(repo, "package.json"))
const versions = {
  typescript: rootManifest.devDependencies.typescript,
  "@types/node": rootManifest.devDependencies["@types/node"],
  express: readJson(join(repo, "examples/package.json")).dependencies.express,
  effect: readJson(join(repo, "packages/core/package.json")).devDependencies.effect
}
for (const [name, version] of Object.entries(versions)) {
  if (typeof version !== "string") fail(`no version of ${name} found in the repository's manifests`)
}

const hostExample = join(repo, "examples/express-host")
const hostFiles = ["app.mjs", "check.mjs"]
for (const file of hostFiles) {
  if (!existsSync(join(hostExample, file))) fail(`examples/express-host/${file} is missing: the Express host example cannot run`)
}
const migration = join(repo, "examples/migrate-v2/translate.mjs")
if (!existsSync(migration)) fail("examples/migrate-v2/translate.mjs is missing")
const tracer = join(repo, "bench/import-cost/child.mjs")
for (const name of PACKAGES) {
  if (!existsSync(join(repo, "packages", name, "dist"))) fail(`packages/${name}/dist is missing: run npm run build first`)
}

const work = mkdtempSync(join(tmpdir(), "signcraft-pack-check-"))
const keep = process.env.PACK_CHECK_KEEP === "1"
process.on("exit", () => {
  if (keep) console.log(`pack-check: left ${work}`)
  else rmSync(work, { recursive: true, force: true })
})
const tarballDir = join(work, "tarballs")
mkdirSync(tarballDir)

// 1. Pack each package and look inside its tarball.
step("npm pack")
const packed = []
for (const name of PACKAGES) {
  const dir = join(repo, "packages", name)
  const [info] = JSON.parse(run(npm, ["pack", "--json", "--pack-destination", tarballDir], { cwd: dir, stdio: "pipe" }))
  if (info === undefined) fail(`npm pack of packages/${name} reported nothing`)
  if (existsSync(join(dir, ".package.json.unpacked"))) fail(`packages/${name}: postpack did not restore package.json`)
  const files = new Set(info.files.map((file) => file.path))
  for (const required of ["README.md", "LICENSE", "package.json"]) {
    if (!files.has(required)) fail(`${info.name}'s tarball has no ${required}`)
  }
  const manifest = JSON.parse(run("tar", ["-xOzf", join(tarballDir, info.filename), "package/package.json"]))
  const targets = Object.values(manifest.exports ?? {}).flatMap((conditions) => Object.entries(conditions))
  for (const [condition, target] of targets) {
    if (condition === "@signcraft/source") fail(`${info.name}'s packed exports still carry the @signcraft/source condition`)
    if (!files.has(target.replace(/^\.\//, ""))) fail(`${info.name} exports ${target} (${condition}), which its tarball does not hold`)
  }
  for (const bin of Object.values(typeof manifest.bin === "string" ? { bin: manifest.bin } : (manifest.bin ?? {}))) {
    if (!files.has(bin.replace(/^\.\//, ""))) fail(`${info.name}'s bin ${bin} is not in its tarball`)
  }
  if (manifest.peerDependencies?.effect === undefined && JSON.stringify(manifest).includes('"effect"')) {
    fail(`${info.name} names effect but not as a peer dependency`)
  }
  packed.push({ name: info.name, tarball: join(tarballDir, info.filename), manifest, size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount })
}

const install = (dir, specs) =>
  run(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...specs], { cwd: dir, stdio: "pipe" })

const makeProject = (name) => {
  const dir = join(work, name)
  mkdirSync(dir)
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, private: true, type: "module" }, null, 2)}\n`)
  return dir
}

// Every directory of `name` anywhere under node_modules (hoisted or nested).
const installedCopies = (dir, name) => {
  const found = []
  const walk = (modules) => {
    if (!existsSync(modules)) return
    if (existsSync(join(modules, name, "package.json"))) found.push(join(modules, name))
    for (const entry of readdirSync(modules)) {
      const path = join(modules, entry)
      if (entry.startsWith("@")) {
        for (const scoped of readdirSync(path)) walk(join(path, scoped, "node_modules"))
      } else if (!entry.startsWith(".")) walk(join(path, "node_modules"))
    }
  }
  walk(join(dir, "node_modules"))
  return found
}

const traceHeavy = (dir, specifier) => {
  const { modules } = JSON.parse(run(process.execPath, [join(dir, "import-cost-child.mjs"), "--trace", specifier], { cwd: dir }))
  if (!modules.some((url) => url.includes("/node_modules/@signcraft/"))) fail(`tracing ${specifier} saw no @signcraft module`)
  return modules.filter((url) => HEAVY.some((heavy) => url.includes(`/node_modules/${heavy}/`)))
}

const duBytes = (dir) => {
  let total = 0
  const walk = (path) => {
    const info = statSync(path, { throwIfNoEntry: false })
    if (info === undefined) return
    if (info.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry))
    else total += info.size
  }
  walk(dir)
  return total
}

// 2. A host project: every tarball, the example's framework and the type-checker.
step("install the tarballs into an empty host project")
const host = makeProject("host")
install(host, [
  ...packed.map((pkg) => pkg.tarball),
  `effect@${versions.effect}`,
  `express@${versions.express}`,
  `typescript@${versions.typescript}`,
  `@types/node@${versions["@types/node"]}`
])

step("tsc --noEmit on a file importing every export")
const specifiers = packed.flatMap((pkg) => Object.keys(pkg.manifest.exports ?? { ".": {} }).map((subpath) => pkg.name + subpath.slice(1)))
const importLines = specifiers.map((specifier, index) => `import * as entry${index} from "${specifier}"`)
// A module whose declarations failed to resolve reads as `any`: refuse that for each entry and
// for the names an integrator and a host use first.
const notAnyLines = [
  ...specifiers.map((_, index) => `export const entry${index}IsTyped: NotAny<typeof entry${index}> = true`),
  `import { SigncraftClient } from "@signcraft/client"`,
  `import { makeWebHandler } from "@signcraft/core"`,
  `import { pricing } from "@signcraft/core/domain"`,
  `import { SigncraftApi } from "@signcraft/core/api"`,
  `const client = new SigncraftClient({ baseUrl: "https://signs.example", apiKey: "sk_test_x" })`,
  `export const typedMethods: NotAny<typeof client.v3.v3Stores> = true`,
  `export const typedHandler: NotAny<ReturnType<typeof makeWebHandler>["handler"]> = true`,
  `export const typedRule: NotAny<typeof pricing.validatePricingV2> = true`,
  `export const typedApi: NotAny<typeof SigncraftApi> = true`
]
writeFileSync(
  join(host, "entries.ts"),
  [...importLines, "", "type NotAny<T> = 0 extends 1 & T ? never : true", ...notAnyLines, ""].join("\n")
)
writeFileSync(
  join(host, "tsconfig.json"),
  `${JSON.stringify({
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] },
    files: ["entries.ts"]
  }, null, 2)}\n`
)
run(process.execPath, [join(host, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: host, stdio: "inherit" })

step(`the Express host example${process.env.DATABASE_URL ? " (DATABASE_URL set)" : " (embedded database)"}`)
for (const file of hostFiles) copyFileSync(join(hostExample, file), join(host, file))
run(process.execPath, ["check.mjs"], { cwd: host, stdio: "inherit", env: process.env })

step("the v2 migration script on @signcraft/core/domain")
copyFileSync(migration, join(host, "translate.mjs"))
run(process.execPath, ["translate.mjs"], { cwd: host, stdio: "inherit" })

step("what the light entries load, as installed")
copyFileSync(tracer, join(host, "import-cost-child.mjs"))
for (const specifier of ["@signcraft/core/domain", "@signcraft/core/api", "@signcraft/client"]) {
  const heavy = traceHeavy(host, specifier)
  if (heavy.length > 0) fail(`${specifier} loads ${heavy.slice(0, 5).join(", ")}`)
}

// 3. A project with the client alone.
step("a client-only project")
const clientOnly = makeProject("client-only")
const clientPackage = packed.find((pkg) => pkg.name === "@signcraft/client")
if (clientPackage === undefined) fail("no @signcraft/client tarball")
install(clientOnly, [clientPackage.tarball, `effect@${versions.effect}`])
for (const heavy of [...HEAVY, "@signcraft/core"]) {
  const copies = installedCopies(clientOnly, heavy)
  if (copies.length > 0) fail(`installing @signcraft/client installed ${heavy} (${copies.join(", ")})`)
}
writeFileSync(
  join(clientOnly, "construct.mjs"),
  `import { SigncraftClient, verifyWebhook } from "@signcraft/client"
import { makeSigncraftEffectClient } from "@signcraft/client/effect"
const client = new SigncraftClient({ baseUrl: "https://signs.example", apiKey: "sk_test_x" })
if (typeof client.v3.v3Stores !== "object") throw new Error("no typed v3 methods")
if (typeof verifyWebhook !== "function" || typeof makeSigncraftEffectClient !== "function") throw new Error("missing exports")
console.log("client constructed: " + Object.keys(client.v3).length + " v3 groups")
`
)
run(process.execPath, ["construct.mjs"], { cwd: clientOnly, stdio: "inherit" })
const clientModulesBytes = duBytes(join(clientOnly, "node_modules"))

// 4. Sizes, as bench/RESULTS.md records them.
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`
console.log("\n| package | tarball | unpacked | files |\n|---|---:|---:|---:|")
for (const pkg of packed) console.log(`| \`${pkg.name}\` | ${kB(pkg.size)} | ${kB(pkg.unpackedSize)} | ${pkg.entryCount} |`)
console.log(`\nclient-only project: node_modules ${(clientModulesBytes / 1024 / 1024).toFixed(1)} MB; host project: node_modules ${(duBytes(join(host, "node_modules")) / 1024 / 1024).toFixed(1)} MB`)
console.log("pack-check: passed")
