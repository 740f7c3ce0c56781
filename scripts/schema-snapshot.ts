/**
 * Writes `packages/core/schema.sql`: the live schema a fresh database has after every migration
 * (`pg_dump --schema-only` of signcraft's own schema), so a reviewer reads what the tables,
 * functions and triggers are today without replaying the migrations in their head. With
 * `--check`, compares instead and fails when a migration changed the schema but not the file.
 *
 * Needs PostgreSQL: `SIGNCRAFT_CI_PG` (default `postgres://postgres@127.0.0.1:5432`) names a
 * server where a throwaway database may be created.
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { layerDatabase } from "@signcraft/core"
import { Effect, Layer } from "effect"

const server = process.env.SIGNCRAFT_CI_PG ?? "postgres://postgres@127.0.0.1:5432"
const target = fileURLToPath(new URL("../packages/core/schema.sql", import.meta.url))
const check = process.argv.includes("--check")
const database = `signcraft_schema_${process.pid}_${Date.now()}`
const psql = (statement: string) => execFileSync("psql", [`${server}/postgres`, "-qc", statement], { stdio: "inherit" })

// pg_dump's header names its own version and the server's; `\restrict` lines (PostgreSQL 17.6+)
// carry a random key. Neither is the schema.
const normalise = (dump: string): string =>
  `-- The live schema after every migration (scripts/schema-snapshot.ts writes it; CI checks it).\n\n${
    dump
      .split("\n")
      .filter((line) => !line.startsWith("-- Dumped ") && !line.startsWith("\\restrict") && !line.startsWith("\\unrestrict"))
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  }\n`

psql(`CREATE DATABASE ${database}`)
try {
  await Effect.runPromise(Layer.build(layerDatabase({ _tag: "Postgres", url: `${server}/${database}` })).pipe(Effect.scoped))
  const dump = execFileSync("pg_dump", ["--schema-only", "--no-owner", "--no-privileges", "--schema=signcraft", `${server}/${database}`], {
    encoding: "utf8"
  })
  const snapshot = normalise(dump)
  if (check) {
    const committed = readFileSync(target, "utf8")
    if (committed !== snapshot) {
      writeFileSync(`${target}.new`, snapshot)
      console.error(`packages/core/schema.sql is out of date: run \`npm run schema:snapshot\` (the new dump is at ${target}.new)`)
      execFileSync("diff", ["-u", target, `${target}.new`], { stdio: "inherit" })
      process.exitCode = 1
    } else {
      console.log("packages/core/schema.sql matches the migrations")
    }
  } else {
    writeFileSync(target, snapshot)
    console.log(`wrote ${target}`)
  }
} finally {
  psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
}
