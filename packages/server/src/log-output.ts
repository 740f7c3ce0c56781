/** Where the server writes its output lines: request logs as JSON, the banner as text. */
export interface LineOutput {
  /** Writes one record as a single JSON line. */
  readonly json: (record: Readonly<Record<string, unknown>>) => void
  /** Writes lines of plain text. */
  readonly text: (...lines: ReadonlyArray<string>) => void
  /** Writes out everything buffered so far, synchronously. */
  readonly flush: () => void
}

// Flush well before a pipe's buffer would fill, so one burst never blocks for long.
const FLUSH_AT_CHARS = 64 * 1024

/**
 * Buffers lines and writes them in one call per turn of the event loop. Under load a
 * write per request costs more than the request itself;
 * batching keeps the log complete while paying the write once per burst.
 */
export const makeLineOutput = (write: (chunk: string) => void): LineOutput => {
  let pending = ""
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending === "") return
    const chunk = pending
    pending = ""
    write(chunk)
  }
  const push = (line: string) => {
    pending += `${line}\n`
    if (pending.length >= FLUSH_AT_CHARS) flush()
    else if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
  return {
    json: (record) => push(JSON.stringify(record)),
    text: (...lines) => {
      for (const line of lines) push(line)
    },
    flush
  }
}

/** Output to the process's stdout, flushed when the process exits. */
export const stdoutOutput = (): LineOutput => {
  // stdout is synchronous for files and pipes on Linux, so writing at `exit` is not lost.
  const output = makeLineOutput((chunk) => process.stdout.write(chunk))
  process.once("exit", output.flush)
  return output
}
