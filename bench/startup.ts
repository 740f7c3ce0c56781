/**
 * Start-up timings (docs/performance.md): from spawning `node packages/server/bin/signcraft.js serve`, what
 * `npm start` runs, to `/healthz` answering 200; on a fresh data directory, then again over the
 * same directory. Targets on a quiet machine: under 15 s fresh, under 5 s the second time.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { freePort, spawnServer, stopServer, waitUntilAnswering } from "./processes.js"

/** The start-up targets (docs/performance.md), in seconds. */
export const STARTUP_TARGETS = { fresh: 15, second: 5 } as const

/** Seconds to healthy on a fresh data directory and on a second start over it. */
export interface StartupTimings {
  readonly fresh: number
  readonly second: number
}

// One start: spawn the command, poll /healthz, stop it (stopping is not timed).
const timeOneStart = async (dataDir: string): Promise<number> => {
  const port = await freePort()
  const startedAt = performance.now()
  const server = spawnServer(["packages/server/bin/signcraft.js", "serve"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    // The embedded database: a DATABASE_URL inherited from the benchmark's environment must not
    // point the start at PostgreSQL.
    DATABASE_URL: ""
  })
  try {
    // Polled every 100 ms, so the figure is at most that late.
    await waitUntilAnswering(server, `http://127.0.0.1:${port}/healthz`, 200, 180_000)
    return (performance.now() - startedAt) / 1000
  } finally {
    await stopServer(server)
  }
}

/** Times a fresh start and a second start over the same temporary data directory. */
export const timeStartups = async (): Promise<StartupTimings> => {
  const dataDir = mkdtempSync(join(tmpdir(), "signcraft-bench-startup-"))
  try {
    const fresh = await timeOneStart(dataDir)
    const second = await timeOneStart(dataDir)
    return { fresh, second }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
