/**
 * `npm run bench`: the HTTP benchmark (stores-me), the pricing validation benchmark and the
 * analytics summary over 1,000,000 orders, when present. Each runs in its own process so one cannot skew the other. Exits
 * non-zero only when a benchmark crashes; a figure below its target is reported, not fatal.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("..", import.meta.url))
const benchmarks = ["bench/stores-me.ts", "bench/pricing-validate.ts", "bench/analytics.ts", "bench/webhooks.ts"].filter((file) =>
  existsSync(fileURLToPath(new URL(`../${file}`, import.meta.url)))
)

const runOne = (file: string) =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ["--conditions=@signcraft/source", "--import", "tsx", file], { cwd: repoRoot, stdio: "inherit" })
    child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
  })

let failures = 0
for (const file of benchmarks) {
  console.log(`\n=== ${file} ===`)
  const code = await runOne(file)
  if (code !== 0) {
    console.error(`${file} exited with ${code}`)
    failures += 1
  }
}
process.exitCode = failures === 0 ? 0 : 1
