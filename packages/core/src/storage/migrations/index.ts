import { Migrator } from "effect/sql"
import foundation from "./0001_foundation.js"
import oauth from "./0005_oauth.js"

/**
 * Every schema migration, in order. Migrations are Effects compiled into the
 * package (no files read at run time) and each runs inside the migrator's transaction.
 */
export const migrations = Migrator.fromRecord({
  "0001_foundation": foundation,
  "0005_oauth": oauth
})
