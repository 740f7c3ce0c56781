import type { CommandContext } from "../../src/commands/context.js"

/** A command context that records stdout and stderr lines. */
export const capture = (env: Record<string, string | undefined> = {}, fetch?: typeof globalThis.fetch) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const context: CommandContext = {
    env,
    out: (line) => void out.push(line),
    err: (line) => void err.push(line),
    ...(fetch === undefined ? {} : { fetch })
  }
  return { context, out, err }
}
