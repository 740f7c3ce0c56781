/**
 * One bounded autocannon run against a server process, with what makes it honest: the server's
 * CPU time (from /proc) and the load generator's own CPU time over the same wall-clock window.
 */
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import autocannon from "autocannon"
import { cpuMicros } from "./processes.js"

/** The request a case sends, over and over. */
export interface CaseRequest {
  readonly url: string
  readonly method: "GET" | "POST"
  readonly headers: Record<string, string>
  readonly body?: string
  /** Whether `[<id>]` in headers and body is replaced by a fresh id per request. */
  readonly unique?: boolean
}

/** How hard and how long to load. */
export interface LoadShape {
  readonly seconds: number
  readonly connections: number
  /** autocannon worker threads; 0 runs the load in this thread. */
  readonly workers: number
  /** Stop after this many requests instead of after `seconds`. */
  readonly amount?: number
}

/** What one run measured. */
export interface Measurement {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  /** Errors, timeouts and answers other than 2xx. */
  readonly failures: number
  /** The server's CPU time (user + system) per request, in µs. */
  readonly cpuUsPerRequest: number
  /** The server's CPU time per wall second: 1.0 is one core busy all the time. */
  readonly serverCores: number
  /** The load generator's (this process's, worker threads included) CPU time per wall second. */
  readonly generatorCores: number
  /** The run's wall-clock length, in µs. */
  readonly wallMicros: number
  /** The 1-minute load average when the run ended: other work on the machine skews figures. */
  readonly load: number
}

/** Loads the server whose process is `pid` with `request` for `shape.seconds`. */
export const measure = async (pid: number | undefined, request: CaseRequest, shape: LoadShape): Promise<Measurement> => {
  const serverBefore = cpuMicros(pid)
  const generatorBefore = process.cpuUsage()
  const startedAt = performance.now()
  const result = await autocannon({
    url: request.url,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.unique === true ? { idReplacement: true } : {}),
    connections: shape.connections,
    duration: shape.seconds,
    ...(shape.amount === undefined ? {} : { amount: shape.amount }),
    ...(shape.workers > 0 ? { workers: shape.workers } : {})
  })
  const serverMicros = cpuMicros(pid) - serverBefore
  const generator = process.cpuUsage(generatorBefore)
  // autocannon's own duration excludes starting worker threads, during which the server idles;
  // the generator's CPU still includes that start, which can only understate its headroom.
  const wallMicros = result.duration > 0 ? result.duration * 1_000_000 : (performance.now() - startedAt) * 1000
  const requests = result.requests.total
  return {
    // From the totals: with workers, the per-second histogram only counts seconds all reported.
    rps: wallMicros > 0 ? (requests * 1_000_000) / wallMicros : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    failures: result.errors + result.timeouts + result.non2xx,
    cpuUsPerRequest: requests > 0 ? serverMicros / requests : 0,
    serverCores: wallMicros > 0 ? serverMicros / wallMicros : 0,
    generatorCores: wallMicros > 0 ? (generator.user + generator.system) / wallMicros : 0,
    wallMicros,
    load: loadavg()[0] ?? 0
  }
}
