import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterEach, describe, expect, it } from "vitest"
import { initialiseInChild, isInitialised } from "../../src/storage/embedded-initdb.js"
import { layerEmbedded } from "../../src/storage/embedded.js"

// How the embedded database starts (docs/configuration.md, memory): a new data directory is created by a
// child process, and the database runs with small shared buffers.
describe("the embedded database's start", () => {
  const dirs: Array<string> = []
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "signcraft-embedded-start-"))
    dirs.push(dir)
    return dir
  }
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  const query = <A>(dataDir: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => {
    const runtime = ManagedRuntime.make(layerEmbedded({ dataDir }))
    return runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement)).finally(() => runtime.dispose())
  }

  it("a child process creates the cluster in a new directory", async () => {
    const dir = freshDir()
    expect(isInitialised(dir)).toBe(false)
    await expect(initialiseInChild(dir)).resolves.toBe(true)
    expect(isInitialised(dir)).toBe(true)
    const rows = await query(dir, (sql) => sql<{ answer: number }>`SELECT 1 + 1 AS answer`)
    expect(rows).toEqual([{ answer: 2 }])
  }, 60_000)

  it("opening a new directory initialises it, keeps its data, and runs with 32 MB of shared buffers", async () => {
    const dir = freshDir()
    const shown = await query(dir, (sql) =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE kept (value text)`
        yield* sql`INSERT INTO kept VALUES ('here')`
        return yield* sql<{ shared_buffers: string }>`SHOW shared_buffers`
      }))
    expect(isInitialised(dir)).toBe(true)
    expect(shown).toEqual([{ shared_buffers: "32MB" }])
    const kept = await query(dir, (sql) => sql<{ value: string }>`SELECT value FROM kept`)
    expect(kept).toEqual([{ value: "here" }])
  }, 60_000)

  it("a failing child is an error naming the directory", async () => {
    // A regular file where the directory should be: initdb cannot create the cluster in it.
    const dir = join(freshDir(), "not-a-directory")
    await import("node:fs").then((fs) => fs.writeFileSync(dir, "x"))
    await expect(initialiseInChild(dir)).rejects.toThrow(dir)
  }, 60_000)
})
