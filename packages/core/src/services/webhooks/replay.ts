import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound } from "../../domain/errors.js"
import { TEST_EVENT_TOPIC, testEventPayload } from "../../domain/webhooks/test-event.js"
import { decodeRows, decodeSingleRow, isStorableBigId, RowId } from "../../storage/rows.js"
import { type DeliveryRecord, WebhookDeliveries } from "./deliveries.js"
import { WebhookSubscriptions } from "./subscriptions.js"

/** The window of a recovery: events created at or after `since` and, when given, before `until`. */
export interface RecoveryWindow {
  readonly since: Date
  readonly until?: Date | undefined
}

const IdRow = Schema.Struct({ id: RowId })

/**
 * Sending events again, on request: one event to one subscription (resend), every event a
 * subscription missed in a window (recover), and a test event. Each queues attempts for the
 * delivery worker, with the event's own `x-webhook-id`, and works whether or not the subscription
 * is disabled (a test tells whether a receiver is back before it is re-enabled). The HTTP API and
 * the dashboard both call these.
 */
export class WebhookReplay extends Context.Service<WebhookReplay, {
  /** Queues one attempt of the event to the subscription now (`trigger: manual`); an attempt in flight is left as it is. */
  readonly resend: (storeId: number, subscriptionId: number, eventId: number) => Effect.Effect<DeliveryRecord, NotFound>
  /**
   * Queues, in the events' order, every event of the subscription's topic created in the window
   * since the subscription itself with no successful delivery to it yet (`trigger: recovery`);
   * answers how many.
   */
  readonly recover: (storeId: number, subscriptionId: number, window: RecoveryWindow) => Effect.Effect<number, NotFound>
  /** Records a `webhook:test` event and queues its delivery to this subscription only. */
  readonly sendTest: (storeId: number, subscriptionId: number) => Effect.Effect<DeliveryRecord, NotFound>
}>()("signcraft/WebhookReplay") {
  static readonly layer = Layer.effect(
    WebhookReplay,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const subscriptions = yield* WebhookSubscriptions
      const deliveries = yield* WebhookDeliveries
      const queued = decodeSingleRow(IdRow)
      const ids = decodeRows(IdRow)

      // A re-queued delivery starts a fresh retry window: it is not given up on its first failure
      // because its earlier attempts are a day old.
      const requeue = (trigger: "manual" | "recovery") =>
        sql`DO UPDATE SET status = 'pending', trigger = ${trigger}, next_attempt_at = now(), first_attempt_at = NULL,
          last_error = NULL, updated_at = now()
          WHERE NOT (webhook_deliveries.status = 'pending' AND webhook_deliveries.locked_until IS NOT NULL
            AND webhook_deliveries.locked_until > now())`

      const resend = Effect.fn("WebhookReplay.resend")(function*(storeId: number, subscriptionId: number, eventId: number) {
        yield* subscriptions.find(storeId, subscriptionId)
        if (!isStorableBigId(eventId)) return yield* new NotFound({ resource: "event" })
        const rows = yield* sql`
          INSERT INTO webhook_deliveries (event_id, subscription_id, trigger)
          SELECT id, ${subscriptionId}, 'manual' FROM events WHERE id = ${eventId} AND store_id = ${storeId}
          ON CONFLICT (event_id, subscription_id) ${requeue("manual")}
          RETURNING id`.pipe(Effect.orDie)
        if (rows.length === 0) {
          // Either no such event, or its delivery is in flight: the latter is answered as it stands.
          const existing = yield* sql`
            SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.event_id = ${eventId} AND d.subscription_id = ${subscriptionId} AND e.store_id = ${storeId}`.pipe(
            Effect.orDie,
            Effect.flatMap(ids)
          )
          const [inFlight] = existing
          if (inFlight === undefined) return yield* new NotFound({ resource: "event" })
          return yield* deliveries.find(storeId, subscriptionId, inFlight.id)
        }
        return yield* deliveries.find(storeId, subscriptionId, (yield* queued(rows)).id)
      })

      const recover = Effect.fn("WebhookReplay.recover")(function*(storeId: number, subscriptionId: number, window: RecoveryWindow) {
        const subscription = yield* subscriptions.find(storeId, subscriptionId)
        // Rows are inserted in event order, and the worker sends a subscription's recovered
        // deliveries one at a time in that order (WebhookDeliveries.claimDue).
        const rows = yield* sql`
          INSERT INTO webhook_deliveries (event_id, subscription_id, trigger)
          SELECT e.id, ${subscriptionId}, 'recovery' FROM events e
          JOIN webhook_subscriptions s ON s.id = ${subscriptionId}
          WHERE e.store_id = ${storeId} AND e.topic = ${subscription.topic}
            AND e.created_at >= ${window.since} AND e.created_at >= s.created_at
            ${window.until === undefined ? sql`` : sql`AND e.created_at < ${window.until}`}
            AND NOT EXISTS (
              SELECT 1 FROM webhook_deliveries d
              WHERE d.event_id = e.id AND d.subscription_id = ${subscriptionId}
                AND (d.status = 'delivered' OR (d.status = 'pending' AND d.locked_until IS NOT NULL AND d.locked_until > now())))
          ORDER BY e.id
          ON CONFLICT (event_id, subscription_id) ${requeue("recovery")}
          RETURNING id`.pipe(Effect.orDie)
        return rows.length
      })

      const sendTest = Effect.fn("WebhookReplay.sendTest")(function*(storeId: number, subscriptionId: number) {
        const subscription = yield* subscriptions.find(storeId, subscriptionId)
        const body = JSON.stringify(testEventPayload(subscription))
        const rows = yield* sql`
          WITH event AS (
            INSERT INTO events (store_id, topic, body) VALUES (${storeId}, ${TEST_EVENT_TOPIC}, ${body}) RETURNING id
          )
          INSERT INTO webhook_deliveries (event_id, subscription_id, trigger)
          SELECT id, ${subscriptionId}, 'manual' FROM event
          RETURNING id`.pipe(Effect.orDie)
        return yield* deliveries.find(storeId, subscriptionId, (yield* queued(rows)).id)
      })

      return WebhookReplay.of({ resend, recover, sendTest })
    })
  )
}
