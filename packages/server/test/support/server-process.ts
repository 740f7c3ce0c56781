import { type ChildProcess, spawn } from "node:child_process"
import { connect, createServer } from "node:net"
import { fileURLToPath } from "node:url"

/** The repository root, where `node --import tsx` resolves the workspace. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url))

/**
 * Node flags that run a workspace package from its TypeScript source: tsx compiles it, and
 * the `@signcraft/source` export condition points `@signcraft/*` imports at `src/`, not `dist/`.
 */
export const SOURCE_NODE_FLAGS = ["--conditions=@signcraft/source", "--import", "tsx"] as const

/** A port that was free a moment ago, found by letting the kernel pick one. */
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

/** A `signcraft` process started from source, with its output collected. */
export interface ServerProcess {
  readonly child: ChildProcess
  readonly stdout: () => ReadonlyArray<string>
  readonly stderr: () => string
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>
  /** Waits until a stdout line matches, or fails after `timeoutMs`. */
  readonly waitForLine: (pattern: RegExp, timeoutMs?: number) => Promise<string>
}

/** Starts `signcraft` from its TypeScript source under `env` (merged over a minimal environment). */
export const startServer = (args: ReadonlyArray<string>, env: Record<string, string>): ServerProcess => {
  const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, "packages/server/src/bin.ts", ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines: Array<string> = []
  let partial = ""
  let errors = ""
  const waiters = new Set<() => void>()
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n")
    partial = parts.pop() ?? ""
    lines.push(...parts)
    for (const wake of waiters) wake()
  })
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    errors += chunk
  })
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"))
  })
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((line) => pattern.test(line))
        if (found === undefined) return false
        cleanup()
        resolve(found)
        return true
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; stdout:\n${lines.join("\n")}\nstderr:\n${errors}`))
      }, timeoutMs)
      const onExit = () => {
        cleanup()
        reject(new Error(`server exited before printing ${pattern}; stderr:\n${errors}`))
      }
      const cleanup = () => {
        clearTimeout(timer)
        waiters.delete(wake)
        child.off("exit", onExit)
      }
      const wake = () => {
        check()
      }
      if (check()) return
      waiters.add(wake)
      child.once("exit", onExit)
    })
  return { child, stdout: () => lines, stderr: () => errors, exited, waitForLine }
}

/** Resolves once `url` answers 200, polling; `seen` gets every response. Fails after `timeoutMs`. */
export const waitForHealthy = async (
  url: string,
  seen: (response: Response) => void = () => {},
  timeoutMs = 60_000
): Promise<Response> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const response = await fetch(url)
      seen(response)
      if (response.status === 200) return response
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Races a promise against a timeout, for bounded waits on process exit. */
export const within = <A>(promise: Promise<A>, ms: number, what: string): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })

/** Sends a request's head and the first bytes of its body, holding the rest back. */
export const openSlowRequest = async (port: number, path: string, body: string, token: string) => {
  const socket = connect(port, "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve)
    socket.once("error", reject)
  })
  let received = ""
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    received += chunk
  })
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()))
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 4)}`
  )
  return {
    finish: async () => {
      socket.write(body.slice(4))
      await within(ended, 10_000, "the slow request's answer")
      return received
    }
  }
}
