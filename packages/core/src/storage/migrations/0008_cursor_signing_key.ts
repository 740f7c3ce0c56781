import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"

/**
 * Deployment-wide secrets the service makes for itself. The first signs v3 paging cursors
 * (HMAC-SHA256): kept in the database, so every server process accepts the cursors of every
 * other, and no client can make one up.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE service_secrets (
      name text PRIMARY KEY,
      secret text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`INSERT INTO service_secrets ${sql.insert({ name: "cursor_signing", secret: randomBytes(32).toString("base64url") })}`
})
