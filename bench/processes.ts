/**
 * Child-process plumbing for the HTTP benchmarks: pinned spawning, readiness polling,
 * CPU and memory readings from /proc, and stopping.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { isBuildFresh } from "../packages/server/bin/fresh-build.js"

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url))

/** The server's entry, as `npm start` runs it once built (packages/server/bin/signcraft.js). */
export const BUILT_SERVER = "packages/server/dist/bin.js"

/**
 * Builds the workspace unless its build is already as new as its source, so that the servers
 * measured are what `npm start` runs then: the build, without the TypeScript loader's thread.
 */
export const ensureBuilt = (): void => {
  if (isBuildFresh(REPO_ROOT)) return
  console.log("building the workspace (npm run build): the benchmark measures the server as built")
  const build = spawnSync("npm", ["run", "build"], { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "inherit"] })
  if (build.status !== 0 || !isBuildFresh(REPO_ROOT)) throw new Error("npm run build failed; the server cannot be measured as built")
}

// Kernel clock ticks per second, the unit of utime/stime in /proc/<pid>/stat.
const CLOCK_TICKS = 100

/** Whether servers and the load generator can each get a CPU of their own. */
export const canPin = (): boolean =>
  availableParallelism() >= 2 && spawnSync("taskset", ["--version"], { stdio: "ignore" }).status === 0

/** Moves this process (the load generator) to CPU 1. */
export const pinSelfToCpu1 = (): void => {
  spawnSync("taskset", ["-cp", "1", String(process.pid)], { stdio: "ignore" })
}

/** A server under test, running in its own process. */
export interface ServerChild {
  readonly child: ChildProcess
  readonly stderr: () => string
}

/**
 * Moves a started server's main thread (its JavaScript) to CPU 0. Only that thread: the threads
 * it started before (V8's collector helpers) are let use either CPU, as a PostgreSQL server's own
 * processes do. They would otherwise keep the CPU of the process that started the server, which
 * is CPU 1 once the load generator has moved there. Threads started later inherit CPU 0.
 */
export const pinMainThreadToCpu0 = (pid: number | undefined): void => {
  if (pid === undefined) return
  spawnSync("taskset", ["-a", "-cp", "0,1", String(pid)], { stdio: "ignore" })
  spawnSync("taskset", ["-cp", "0", String(pid)], { stdio: "ignore" })
}

/** Starts `node <args>` with `env`; its stdout goes to /dev/null. */
export const spawnServer = (args: ReadonlyArray<string>, env: Record<string, string>): ServerChild => {
  const child = spawn(process.execPath, [...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let errors = ""
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    errors = (errors + chunk).slice(-4000)
  })
  return { child, stderr: () => errors }
}

/** A port that was free a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

// How long a server may take to answer after starting: BENCH_START_TIMEOUT_SECONDS (180). A
// machine shared with other work can take a minute to start one.
const START_TIMEOUT_MS = 1000 * Number(process.env.BENCH_START_TIMEOUT_SECONDS ?? "180")

/** Polls `url` until it answers `status`; fails when the process dies or after `timeoutMs`. */
export const waitUntilAnswering = async (
  server: ServerChild,
  url: string,
  status: number,
  timeoutMs = START_TIMEOUT_MS
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited with ${server.child.exitCode}: ${server.stderr()}`)
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.status === status) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms: ${server.stderr()}`)
}

/** CPU time (user + system) a process has used so far, in microseconds; 0 where /proc is missing. */
export const cpuMicros = (pid: number | undefined): number => {
  const path = `/proc/${pid}/stat`
  if (pid === undefined || !existsSync(path)) return 0
  const stat = readFileSync(path, "utf8")
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0)
  return (ticks * 1_000_000) / CLOCK_TICKS
}

/** Peak resident memory of a process in MB (VmHWM); 0 where /proc is missing. */
export const peakRssMb = (pid: number | undefined): number => {
  const path = `/proc/${pid}/status`
  if (pid === undefined || !existsSync(path)) return 0
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(path, "utf8"))
    return match?.[1] === undefined ? 0 : Math.round(Number(match[1]) / 1024)
  } catch {
    // The process exited between the check and the read.
    return 0
  }
}

/** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. */
export const stopServer = async (server: ServerChild, graceMs = 15_000): Promise<void> => {
  const { child } = server
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
  await exited
  clearTimeout(timer)
}

/** Resident memory of a process now, in MB (VmRSS); 0 where /proc is missing or it has exited. */
export const rssMb = (pid: number | undefined): number => {
  const path = `/proc/${pid}/status`
  if (pid === undefined || !existsSync(path)) return 0
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(path, "utf8"))
    return match?.[1] === undefined ? 0 : Math.round(Number(match[1]) / 1024)
  } catch {
    // The process exited between the check and the read.
    return 0
  }
}

/** The highest memory a process reached while watched. */
export interface RssWatch {
  /** The peak so far, in MB: the larger of the sampled VmRSS and the kernel's VmHWM. */
  readonly peakMb: () => number
  readonly stop: () => void
}

/**
 * Samples a process's resident memory every `intervalMs`. VmHWM alone would do on Linux, but
 * it is gone once the process exits; the samples keep the figure for the summary.
 */
export const watchRss = (pid: number | undefined, intervalMs = 250): RssWatch => {
  let peak = 0
  const sample = () => {
    peak = Math.max(peak, rssMb(pid), peakRssMb(pid))
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    peakMb: () => {
      sample()
      return peak
    },
    stop: () => {
      sample()
      clearInterval(timer)
    }
  }
}

// The machine's busy and total CPU time so far, in jiffies (/proc/stat's first line).
const machineJiffies = (): { readonly busy: number; readonly total: number } | undefined => {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number)
    const total = fields.reduce((sum, value) => sum + value, 0)
    // idle and iowait are the 4th and 5th fields.
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total }
  } catch {
    return undefined
  }
}

/**
 * Waits until the whole machine has been quiet (under `maxCores` busy) for one `windowMs`, at
 * most `timeoutMs`: a server's work left over from a case (webhook deliveries, PostgreSQL's
 * autovacuum) would otherwise slow the baseline measured next and so raise the case's ratio.
 * Answers how long it waited, and whether the machine got quiet.
 */
export const waitForQuietMachine = async (maxCores = 0.2, windowMs = 1000, timeoutMs = 60_000) => {
  const startedAt = Date.now()
  const cores = availableParallelism()
  for (;;) {
    const before = machineJiffies()
    await new Promise((resolve) => setTimeout(resolve, windowMs))
    const after = machineJiffies()
    // Without /proc/stat there is nothing to wait for.
    if (before === undefined || after === undefined || after.total <= before.total) return { waitedMs: Date.now() - startedAt, quiet: true }
    const busyCores = ((after.busy - before.busy) / (after.total - before.total)) * cores
    if (busyCores < maxCores) return { waitedMs: Date.now() - startedAt, quiet: true }
    if (Date.now() - startedAt >= timeoutMs) return { waitedMs: Date.now() - startedAt, quiet: false }
  }
}
