import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * One copy of an event's payload, and no compression of what cannot shrink (docs/group-commit.md, order
 * writes).
 *
 * - An event kept its payload twice: `body`, the exact text enqueued (what deliveries send), and
 *   `payload`, the same document as `jsonb`, which nothing read but the fallback for rows from
 *   before `body` existed. Every order write parsed it a second time into `jsonb`, and the row,
 *   at over 2 KB, was then compressed by the TOAST rules. Rows without a body get it from their
 *   `payload` (the text the fallback gave them), and `payload` goes; `body::jsonb` queries one.
 * - An idempotency key's stored answer is sealed (AES-GCM, base64url): random to a compressor.
 *   Above 2 KB a row is offered to it anyway, which costs the scan and saves nothing. The table
 *   keeps rows whole up to a page (`toast_tuple_target` at its maximum); larger answers are still
 *   moved out of line.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE events SET body = payload::text WHERE body IS NULL`
  yield* sql`ALTER TABLE events ALTER COLUMN body SET NOT NULL`
  yield* sql`ALTER TABLE events DROP COLUMN payload`
  yield* sql`ALTER TABLE idempotency_keys SET (toast_tuple_target = 8160)`
})
