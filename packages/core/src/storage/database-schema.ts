import { Data, Effect } from "effect"

/** The schema signcraft keeps its objects in unless told otherwise. */
export const DEFAULT_DATABASE_SCHEMA = "signcraft"

// A name PostgreSQL takes unquoted and unchanged (lower case, so never folded), within its
// identifier limit of NAMEDATALEN - 1 bytes. `pg_` names are refused by CREATE SCHEMA, and
// information_schema is the standard's own.
const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/

/** What a schema name must be, as start-up errors word it. */
export const DATABASE_SCHEMA_EXPECTED =
  "a lower-case SQL identifier: a letter or _, then letters, digits or _, at most 63 characters, not pg_… or information_schema"

/** Whether `name` can be signcraft's schema: a plain identifier PostgreSQL lets anyone create. */
export const isDatabaseSchemaName = (name: string): boolean =>
  PLAIN_IDENTIFIER.test(name) && !name.startsWith("pg_") && name !== "information_schema"

/** The schema setting was not a name signcraft can use. */
export class InvalidDatabaseSchema extends Data.TaggedError("InvalidDatabaseSchema")<{
  readonly schema: string
  readonly message: string
}> {}

/** The schema to use: `schema` when it is a valid name, the default when absent. */
export const checkDatabaseSchema = (schema: string | undefined): Effect.Effect<string, InvalidDatabaseSchema> => {
  if (schema === undefined) return Effect.succeed(DEFAULT_DATABASE_SCHEMA)
  if (isDatabaseSchemaName(schema)) return Effect.succeed(schema)
  return Effect.fail(
    new InvalidDatabaseSchema({
      schema,
      message: `databaseSchema must be ${DATABASE_SCHEMA_EXPECTED}, got ${JSON.stringify(schema)}`
    })
  )
}
