// One measurement of one import, in a fresh process: `--time <specifier>` prints how long the
// import took; `--trace <specifier>` prints every module it loaded (ES modules through a
// module.register load hook, CommonJS ones from require.cache). Timing and tracing run in
// separate processes because the hook itself slows loading down.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire, register } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { pathToFileURL } from "node:url"

const [mode, specifier] = process.argv.slice(2)
if ((mode !== "--time" && mode !== "--trace") || specifier === undefined) {
  console.error("usage: node child.mjs --time|--trace <specifier>")
  process.exit(2)
}

if (mode === "--time") {
  const started = performance.now()
  await import(specifier)
  const ms = performance.now() - started
  console.log(JSON.stringify({ specifier, ms, rssBytes: process.memoryUsage().rss }))
} else {
  const dir = mkdtempSync(join(tmpdir(), "import-trace-"))
  const out = join(dir, "urls")
  appendFileSync(out, "")
  const hooks = `
    import { appendFileSync } from "node:fs"
    let out
    export function initialize(data) { out = data.out }
    export async function load(url, context, nextLoad) {
      appendFileSync(out, url + "\\n")
      return nextLoad(url, context)
    }`
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { out } })
  await import(specifier)
  const esm = readFileSync(out, "utf8").split("\n").filter((url) => url.startsWith("file:"))
  rmSync(dir, { recursive: true, force: true })
  const cjs = Object.keys(createRequire(import.meta.url).cache).map((path) => pathToFileURL(path).href)
  const modules = [...new Set([...esm, ...cjs])].filter((url) => url !== import.meta.url).sort()
  console.log(JSON.stringify({ specifier, modules }))
}
