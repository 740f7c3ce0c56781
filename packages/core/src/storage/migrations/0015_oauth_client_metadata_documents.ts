import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Clients known by a metadata document (their `client_id` is its URL) live beside registered
 * ones, so grants keep one foreign key; the row is the fetched document, fresh until
 * `document_fresh_until` (its caching headers, at most a day), then fetched again.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE oauth_clients ADD COLUMN metadata_document boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE oauth_clients ADD COLUMN document_fresh_until timestamptz`
})
