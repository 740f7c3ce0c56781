import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { DatabaseConfig } from "@signcraft/core"

/** A database a suite can run on, and how to throw it away afterwards. */
export interface TestDatabase {
  readonly config: DatabaseConfig
  readonly cleanup: () => Promise<void>
}

/** One way of providing databases to a suite: the embedded one, or a PostgreSQL server. */
export interface DatabaseVariant {
  readonly name: "embedded" | "postgres"
  readonly create: () => Promise<TestDatabase>
}

const adminQuery = (url: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* statement(sql)
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    )
  )

/** A fresh embedded database in a temporary directory. */
export const embeddedVariant: DatabaseVariant = {
  name: "embedded",
  create: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "signcraft-test-"))
    return {
      config: { _tag: "Embedded", location: { dataDir } },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** A throwaway database on the PostgreSQL server named by `url`, dropped afterwards. */
export const postgresVariant = (url: string): DatabaseVariant => ({
  name: "postgres",
  create: async () => {
    const name = `signcraft_test_${randomBytes(6).toString("hex")}`
    await adminQuery(url, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
    const target = new URL(url)
    target.pathname = `/${name}`
    return {
      config: { _tag: "Postgres", url: target.toString() },
      cleanup: () => adminQuery(url, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    }
  }
})

/**
 * The embedded database always; PostgreSQL too when `DATABASE_URL` is set. `TEST_DATABASES=postgres`
 * narrows a run to PostgreSQL alone: CI's PostgreSQL leg follows a whole embedded run, so running
 * the embedded variant again there would only repeat it.
 */
export const databaseVariants = (): ReadonlyArray<DatabaseVariant> => {
  const url = process.env.DATABASE_URL
  if (url === undefined || url === "") return [embeddedVariant]
  return process.env.TEST_DATABASES === "postgres" ? [postgresVariant(url)] : [embeddedVariant, postgresVariant(url)]
}
