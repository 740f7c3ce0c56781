import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import type { Duplex } from "node:stream"
import { afterEach, describe, expect, it } from "vitest"
import { type BatchExecutor, inProcessExecutor, openWireConnection } from "../../src/storage/pglite-wire.js"

type Sql = SqlClient.SqlClient

// The messages along an error's chain of causes (a SqlError's reason carries the driver's error).
const causeMessages = (error: unknown): ReadonlyArray<string> => {
  const messages: Array<string> = []
  for (let at: unknown = error, depth = 0; typeof at === "object" && at !== null && depth < 10; depth += 1) {
    const { message, cause, reason } = at as { message?: unknown; cause?: unknown; reason?: unknown }
    if (typeof message === "string") messages.push(message)
    at = reason ?? cause
  }
  return messages
}

// The embedded database's wire bridge: what happens to a connection that is dropped, or whose
// batch fails. PGlite is one backend, so what one connection leaves behind the next one inherits.
describe("the embedded database's wire connection", () => {
  const databases: Array<PGlite> = []
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((db) => db.close()))
  })

  // A client whose connections run on `executor`, recording the sockets as the pool opens them.
  const connectTo = (executor: BatchExecutor, sockets: Array<Duplex> = []) =>
    ManagedRuntime.make(
      PgClient.layer({
        stream: () => {
          const socket = openWireConnection(executor)
          sockets.push(socket)
          return socket
        },
        ssl: false,
        username: "postgres",
        database: "postgres",
        maxConnections: 1,
        connectTimeout: "20 seconds"
      })
    )
  const run = <A>(runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>, statement: (sql: Sql) => Effect.Effect<A, unknown>) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement))

  const openDatabase = async () => {
    const db = new PGlite()
    await db.waitReady
    databases.push(db)
    return db
  }

  const leaveTransactionOpen = (runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>) =>
    run(runtime, (sql) =>
      Effect.gen(function*() {
        yield* sql.unsafe("CREATE TABLE IF NOT EXISTS left_open (value int)")
        yield* sql.unsafe("BEGIN")
        yield* sql.unsafe("INSERT INTO left_open VALUES (1)")
      }))

  // Left open, the transaction would still be open for the next connection, which would see its row.
  const expectRolledBack = async (db: PGlite) => {
    const next = connectTo(inProcessExecutor(db))
    try {
      expect(await run(next, (sql) => sql<{ count: number }>`SELECT count(*)::int AS count FROM left_open`)).toEqual([{ count: 0 }])
    } finally {
      await next.dispose()
    }
  }

  it("rolls back a transaction left open by a connection the driver closed", async () => {
    const db = await openDatabase()
    const dropped = connectTo(inProcessExecutor(db))
    await leaveTransactionOpen(dropped)
    // Closing the client ends its connection with a Terminate, without a COMMIT.
    await dropped.dispose()
    await expectRolledBack(db)
  }, 60_000)

  it("rolls back a transaction left open by a connection whose socket was destroyed", async () => {
    const db = await openDatabase()
    const sockets: Array<Duplex> = []
    const dropped = connectTo(inProcessExecutor(db), sockets)
    await leaveTransactionOpen(dropped)
    for (const socket of sockets) socket.destroy()
    await dropped.dispose()
    await expectRolledBack(db)
  }, 60_000)

  it("fails the statement whose batch failed, rather than leaving it waiting or crashing", async () => {
    const failing: BatchExecutor = {
      execute: () => Promise.reject(new Error("the backend is gone")),
      rollbackOpenTransaction: async () => undefined
    }
    const client = connectTo(failing)
    try {
      const outcome = await run(client, (sql) => sql`SELECT 1`).then(() => "answered", (error: unknown) => error)
      // Failed with the batch's own error, not later with a connect timeout.
      expect(causeMessages(outcome)).toContain("the backend is gone")
    } finally {
      await client.dispose()
    }
  }, 60_000)
})
