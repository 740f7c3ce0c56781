import type { RequestLogger } from "@signcraft/core"

/** What a host does with signcraft's request log lines: a function of its own, or `false` for none. */
export type RequestLogOption = RequestLogger | false

/** One JSON line per request on standard output, with the time it was written first, as the server writes them. */
export const stdoutRequestLogger: RequestLogger = (line) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`)
}

/** The logger an option names: standard output when absent, nothing when `false`. */
export const requestLoggerOf = (option: RequestLogOption | undefined): RequestLogger | undefined =>
  option === undefined ? stdoutRequestLogger : option === false ? undefined : option
