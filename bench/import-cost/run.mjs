// What each package entry costs to import, from the built dist under plain Node:
//   npm run build && node bench/import-cost/run.mjs [--runs 5]
// Each figure comes from fresh processes (child.mjs): the modules loaded (files, not Node
// built-ins) from one traced import, and the median time and resident memory over `--runs`
// untraced imports. Prints a Markdown table.
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const ENTRIES = [
  "@signcraft/core/domain",
  "@signcraft/core/api",
  "@signcraft/client",
  "@signcraft/core/postgres",
  "@signcraft/core/embedded",
  "@signcraft/core",
  "@signcraft/adapters",
  "@signcraft/core/internal"
]
// The packages whose absence the light entries promise.
const HEAVY = ["@electric-sql/pglite", "pg", "@effect/sql-pg", "@modelcontextprotocol/sdk", "jose"]

const runsFlag = process.argv.indexOf("--runs")
const runs = runsFlag === -1 ? 5 : Number(process.argv[runsFlag + 1])
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a positive integer")

const child = fileURLToPath(new URL("./child.mjs", import.meta.url))
const measure = (mode, specifier) =>
  JSON.parse(execFileSync(process.execPath, [child, mode, specifier], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }))

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const packageOf = (url) => url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1]

console.log(`Node ${process.version}, ${runs} runs per entry (median)\n`)
console.log("| entry | modules | of which effect | heavy packages loaded | import ms | RSS MB |")
console.log("|---|---:|---:|---|---:|---:|")
for (const specifier of ENTRIES) {
  const { modules } = measure("--trace", specifier)
  const packages = modules.map(packageOf)
  const heavy = HEAVY.filter((name) => packages.includes(name))
  const timings = Array.from({ length: runs }, () => measure("--time", specifier))
  const ms = median(timings.map((timing) => timing.ms))
  const rss = median(timings.map((timing) => timing.rssBytes)) / 1024 / 1024
  const effect = packages.filter((name) => name === "effect").length
  console.log(`| \`${specifier}\` | ${modules.length} | ${effect} | ${heavy.length === 0 ? "none" : heavy.join(", ")} | ${ms.toFixed(0)} | ${rss.toFixed(0)} |`)
}
