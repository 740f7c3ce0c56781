import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { isAbsolute, join } from "node:path"

// PGlite initialises a new data directory by starting a second database engine, running initdb
// in it and copying the result across as an archive; the engines, the archive and initdb's
// memory stay allocated until a garbage collection long after start-up, lifting the process far
// above what an opened directory needs (bench/RESULTS.md). A short-lived child process pays
// that instead, so the server's peak is the opened database's.
const CHILD = `
const { PGlite } = require(process.argv[1])
const db = new PGlite(process.argv[2])
db.waitReady.then(() => db.close()).then(
  () => process.exit(0),
  (error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1) }
)
`

/** Whether `dataDir` already holds a database cluster. */
export const isInitialised = (dataDir: string): boolean => existsSync(join(dataDir, "PG_VERSION"))

// PGlite's CommonJS entry as a file a child can load, or undefined where there is none: a bundle
// that inlined this file resolves modules to its own ids (Next.js gives "93254"), or not at all.
// The caller then initialises in process, as PGlite itself does.
const pgliteEntry = (): string | undefined => {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
    return isAbsolute(entry) && existsSync(entry) ? entry : undefined
  } catch {
    return undefined
  }
}

/**
 * Creates the database cluster in `dataDir` in a child process. Resolves false (and creates
 * nothing) when PGlite cannot be located for a child; rejects when the child fails.
 */
export const initialiseInChild = (dataDir: string): Promise<boolean> => {
  const entry = pgliteEntry()
  if (entry === undefined) return Promise.resolve(false)
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", CHILD, entry, dataDir], { maxBuffer: 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error === null) resolve(true)
      else reject(new Error(`initialising the embedded database in ${dataDir} failed: ${stderr || error.message}`))
    })
  })
}
