import { SigncraftProblem } from "@signcraft/client"

/** What a subcommand may touch: its environment, its two output streams and the network. */
export interface CommandContext {
  readonly env: Readonly<Record<string, string | undefined>>
  /** One result line on stdout. */
  readonly out: (line: string) => void
  /** One diagnostic line on stderr. */
  readonly err: (line: string) => void
  /** The `fetch` to send with; tests point it at loopback proxies. */
  readonly fetch?: typeof globalThis.fetch
}

/** The process's own context: `process.env`, stdout, stderr, global fetch. */
export const processContext = (): CommandContext => ({
  env: process.env,
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`signcraft: ${line}\n`)
})

/** Describes a failed call for stderr: a problem's status, code and request id, or the error's message. */
export const describeError = (error: unknown): string => {
  if (error instanceof SigncraftProblem) {
    const id = error.requestId === undefined ? "" : ` (${error.requestId})`
    return `${error.status} ${error.code}: ${error.detail}${id}`
  }
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message
  return String(error)
}
