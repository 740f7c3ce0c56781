import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Webhook endpoint health and secret rotation (docs/webhooks.md): since when a subscription's deliveries
 * have been failing (it is disabled after five days of it), and the secret it had before its
 * last rotation, with the end of the overlap during which deliveries are signed with both.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_subscriptions ADD COLUMN failing_since timestamptz`
  yield* sql`ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret text`
  yield* sql`ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_expires_at timestamptz`
})
