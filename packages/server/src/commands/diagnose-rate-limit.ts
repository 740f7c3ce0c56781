import { performance } from "node:perf_hooks"
import type { CommandContext } from "./context.js"

/**
 * The service's diagnostic rate-limit check (docs/rate-limits.md, docs/client-and-cli.md), step by step: one serial session of at most
 * three `GET /api/v3/stores/me` with the diagnostic header, no redirects, no automatic retry,
 * under a 10 s burst deadline and a 20 s end-to-end deadline, aborting on the first deviation.
 */

/** Header that selects the diagnostic bucket (docs/rate-limits.md, the diagnostic quota). */
export const DIAGNOSTIC_HEADER = "x-signcraft-rate-limit-test"
/** Through the first 429, from just before call 1. */
export const BURST_DEADLINE_MS = 10_000
/** Through call 3's answer, from just before call 1. */
export const END_DEADLINE_MS = 20_000
/** The longest wait before call 3 the procedure accepts, in seconds. */
export const MAX_INTERVAL_SECONDS = 5

/** A monotonic clock (never the wall clock: it may jump) and a way to wait on it. */
export interface MonotonicClock {
  readonly now: () => number
  readonly sleep: (ms: number) => Promise<void>
}

/** `performance.now()` and `setTimeout`. */
export const monotonicClock: MonotonicClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms))
}

/** One call as it is reported, one line each. */
export interface DiagnosticCall {
  readonly call: 1 | 2 | 3
  readonly status: number
  readonly code: string | undefined
  readonly requestId: string | undefined
  /** Since the clock started, in ms. */
  readonly elapsedMs: number
}

/** How the check ended. */
export type DiagnosticResult =
  | { readonly _tag: "Passed"; readonly calls: ReadonlyArray<DiagnosticCall> }
  | { readonly _tag: "Deviation"; readonly reason: string; readonly calls: ReadonlyArray<DiagnosticCall> }
  | { readonly _tag: "Refused"; readonly reason: string }

/** The inputs of one run. */
export interface DiagnosticOptions {
  readonly baseUrl: string
  readonly apiKey: string | undefined
  readonly fetch: typeof globalThis.fetch
  readonly clock: MonotonicClock
  /** Told about each call as soon as its answer is read. */
  readonly onCall: (call: DiagnosticCall) => void
}

/**
 * The interval before call 3: `Retry-After` when it is a valid integer, else (missing or
 * malformed) the body's `retry_after`; undefined unless the chosen value is 0 to 5 seconds.
 */
export const diagnosticInterval = (retryAfterHeader: string | null, body: unknown): number | undefined => {
  const header = retryAfterHeader?.trim()
  const bodyValue = typeof body === "object" && body !== null ? (body as { readonly retry_after?: unknown }).retry_after : undefined
  const seconds = header !== undefined && /^\d+$/.test(header)
    ? Number(header)
    : typeof bodyValue === "number" && Number.isInteger(bodyValue)
    ? bodyValue
    : undefined
  return seconds !== undefined && seconds >= 0 && seconds <= MAX_INTERVAL_SECONDS ? seconds : undefined
}

/** Why a key may not be used, or undefined: the check needs a disposable test-mode key. */
export const refusalOf = (apiKey: string | undefined): string | undefined => {
  if (apiKey === undefined || apiKey === "") return "SIGNCRAFT_API_KEY is not set"
  if (apiKey.startsWith("sk_live_")) return "refusing a live key: the diagnostic needs a disposable test-mode key (sk_test_…)"
  if (!apiKey.startsWith("sk_test_")) return "the diagnostic needs a disposable test-mode key (sk_test_…)"
  return undefined
}

const readJson = async (response: Response): Promise<unknown> => {
  const text = await response.text()
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

const stringMember = (body: unknown, ...path: ReadonlyArray<string>): string | undefined => {
  let value: unknown = body
  for (const name of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined
  return typeof value === "string" ? value : undefined
}

/** Runs the check; sends nothing after the first deviation, and nothing at all when refused. */
export const runRateLimitDiagnostic = async (options: DiagnosticOptions): Promise<DiagnosticResult> => {
  const refusal = refusalOf(options.apiKey)
  if (refusal !== undefined) return { _tag: "Refused", reason: refusal }
  const url = new URL("/api/v3/stores/me", options.baseUrl)
  const headers = { authorization: `Bearer ${options.apiKey}`, accept: "application/json", [DIAGNOSTIC_HEADER]: "true" }
  const calls: Array<DiagnosticCall> = []
  const { clock } = options
  const started = clock.now()
  const burstDeadline = started + BURST_DEADLINE_MS
  const endDeadline = started + END_DEADLINE_MS
  const deviation = (reason: string): DiagnosticResult => ({ _tag: "Deviation", reason, calls })

  // One call, bounded by `deadline`: an answer after it is a deviation, so waiting longer is pointless.
  const send = async (call: 1 | 2 | 3, deadline: number) => {
    const remaining = deadline - clock.now()
    if (remaining <= 0) return { _tag: "Late" as const }
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(), remaining)
    try {
      const response = await options.fetch(url, { method: "GET", headers, redirect: "manual", signal: abort.signal })
      const body = await readJson(response)
      const answered = clock.now()
      const report: DiagnosticCall = {
        call,
        status: response.status,
        code: stringMember(body, "code"),
        requestId: stringMember(body, "meta", "request_id") ?? stringMember(body, "request_id"),
        elapsedMs: answered - started
      }
      calls.push(report)
      options.onCall(report)
      return answered > deadline ? { _tag: "Late" as const } : { _tag: "Answer" as const, response, body, answered }
    } catch (error) {
      return abort.signal.aborted ? { _tag: "Late" as const } : { _tag: "Failed" as const, error }
    } finally {
      clearTimeout(timer)
    }
  }
  const failed = (call: number, outcome: { readonly _tag: "Late" } | { readonly _tag: "Failed"; readonly error: unknown }, deadline: string) =>
    outcome._tag === "Late"
      ? deviation(`call ${call} did not complete within the ${deadline} deadline`)
      : deviation(`call ${call} failed: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`)
  const is2xx = (status: number) => status >= 200 && status < 300

  const first = await send(1, burstDeadline)
  if (first._tag !== "Answer") return failed(1, first, "10 s burst")
  if (!is2xx(first.response.status)) return deviation(`call 1 answered ${first.response.status}, expected 2xx`)

  const second = await send(2, burstDeadline)
  if (second._tag !== "Answer") return failed(2, second, "10 s burst")
  if (second.response.status !== 429 || stringMember(second.body, "code") !== "rate_limited") {
    return deviation(`call 2 answered ${second.response.status} ${stringMember(second.body, "code") ?? ""}, expected 429 rate_limited`.replace(" ,", ","))
  }
  const interval = diagnosticInterval(second.response.headers.get("retry-after"), second.body)
  if (interval === undefined) return deviation("call 2 gave no valid interval (Retry-After, else retry_after: an integer from 0 to 5)")

  // At most 10 s + 5 s: call 3 always starts before the end-to-end deadline.
  const wait = second.answered + interval * 1000 - clock.now()
  if (wait > 0) await clock.sleep(wait)
  const third = await send(3, endDeadline)
  if (third._tag !== "Answer") return failed(3, third, "20 s end-to-end")
  if (!is2xx(third.response.status)) return deviation(`call 3 answered ${third.response.status}, expected 2xx`)
  return { _tag: "Passed", calls }
}

/**
 * `signcraft diagnose rate-limit`: runs the check and prints one line per call. Exit 0 when it
 * passes, 1 on a deviation, 2 when refused before sending.
 */
export const runDiagnoseRateLimit = async (
  options: { readonly baseUrl: string; readonly json: boolean; readonly clock?: MonotonicClock },
  context: CommandContext
): Promise<number> => {
  const result = await runRateLimitDiagnostic({
    baseUrl: options.baseUrl,
    apiKey: context.env.SIGNCRAFT_API_KEY,
    fetch: context.fetch ?? globalThis.fetch,
    clock: options.clock ?? monotonicClock,
    onCall: (call) =>
      context.out(
        options.json
          ? JSON.stringify({ call: call.call, status: call.status, code: call.code ?? null, request_id: call.requestId ?? null, elapsed_ms: Math.round(call.elapsedMs) })
          : `call ${call.call}: ${call.status}${call.code === undefined ? "" : ` ${call.code}`} after ${(call.elapsedMs / 1000).toFixed(2)} s${call.requestId === undefined ? "" : ` (${call.requestId})`}`
      )
  })
  switch (result._tag) {
    case "Refused":
      context.err(result.reason)
      return 2
    case "Deviation":
      context.out(options.json ? JSON.stringify({ result: "deviation", reason: result.reason }) : `deviation: ${result.reason}`)
      break
    case "Passed":
      context.out(options.json ? JSON.stringify({ result: "passed" }) : "passed")
  }
  context.err("revoke the test key now (operator API: DELETE /operator/v1/api-keys/{id}); this command holds no operator token")
  return result._tag === "Passed" ? 0 : 1
}
