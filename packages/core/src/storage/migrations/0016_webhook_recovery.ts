import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Webhook recovery: what an integrator needs to catch up after an outage.
 *
 * - `webhook_subscriptions.signature_scheme`: `signcraft` (the `x-webhook-*` headers, every
 *   existing subscription) or `standard` (Standard Webhooks, https://www.standardwebhooks.com/).
 *   `disabled_reason` says why a disabled subscription stopped: `gone` (its receiver answered 410)
 *   or `failing` (its deliveries kept failing).
 * - `webhook_deliveries.trigger`: why the delivery's next attempt was queued (`scheduled`,
 *   `manual`, `recovery`); each attempt keeps the trigger it was made for. One row per event and
 *   subscription stays the rule: a resend or a recovery queues another attempt of that row, or
 *   makes the row when the event never reached the subscription (it was disabled, say).
 * - `webhook_attempts` also keeps the first kilobyte of the answer, the attempt's outcome and when
 *   the next attempt was due after it.
 * - A recovery is sent in the events' order, one at a time per subscription; the partial index
 *   finds the recovered deliveries still waiting ahead of a candidate.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_subscriptions ADD COLUMN signature_scheme text NOT NULL DEFAULT 'signcraft'`
  yield* sql`ALTER TABLE webhook_subscriptions ADD COLUMN disabled_reason text`
  yield* sql`UPDATE webhook_subscriptions SET disabled_reason = 'failing' WHERE status = 'disabled'`
  yield* sql`ALTER TABLE webhook_deliveries ADD COLUMN trigger text NOT NULL DEFAULT 'scheduled'`
  yield* sql`ALTER TABLE webhook_attempts ADD COLUMN trigger text NOT NULL DEFAULT 'scheduled'`
  yield* sql`ALTER TABLE webhook_attempts ADD COLUMN status text`
  yield* sql`ALTER TABLE webhook_attempts ADD COLUMN response_excerpt text`
  yield* sql`ALTER TABLE webhook_attempts ADD COLUMN next_attempt_at timestamptz`
  yield* sql`CREATE UNIQUE INDEX webhook_deliveries_event_subscription ON webhook_deliveries (event_id, subscription_id)`
  yield* sql`
    CREATE INDEX webhook_deliveries_recovering ON webhook_deliveries (subscription_id, event_id)
    WHERE status = 'pending' AND trigger = 'recovery'`
  yield* sql`CREATE INDEX events_store_created ON events (store_id, created_at)`
})
