import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, RowId, RowNumber, RowTimestamp } from "../../storage/rows.js"
import { snakeStruct } from "../../storage/table.js"
import type { EndpointHealth } from "../../domain/webhooks/endpoint-health.js"

export type { EndpointHealth } from "../../domain/webhooks/endpoint-health.js"

/** How far back the dashboard counts a subscription's failed attempts. */
export const RECENT_FAILURES_HOURS = 24

const HealthRow = snakeStruct({
  subscriptionId: RowId,
  recentFailures: RowNumber,
  failingSince: Schema.NullOr(RowTimestamp),
  lastDeliveredAt: Schema.NullOr(RowTimestamp)
})
const toHealth = decodeRows(HealthRow)

/** Reads the health of a Store's webhook endpoints from the delivery log (it writes nothing). */
export class WebhookHealth extends Context.Service<WebhookHealth, {
  /** The health of each live subscription of the Store, in id order. */
  readonly forStore: (storeId: number) => Effect.Effect<ReadonlyArray<EndpointHealth>>
}>()("signcraft/WebhookHealth") {
  static readonly layer = Layer.effect(
    WebhookHealth,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return WebhookHealth.of({
        forStore: (storeId) =>
          sql`
            SELECT s.id AS subscription_id, s.failing_since,
              (SELECT count(*) FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
                WHERE d.subscription_id = s.id
                  AND a.started_at > now() - make_interval(hours => ${RECENT_FAILURES_HOURS})
                  AND (a.error IS NOT NULL OR a.response_status IS NULL OR a.response_status NOT BETWEEN 200 AND 299)
              ) AS recent_failures,
              (SELECT max(d.delivered_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id) AS last_delivered_at
            FROM webhook_subscriptions s
            WHERE s.store_id = ${storeId} AND s.deleted_at IS NULL
            ORDER BY s.id`.pipe(Effect.flatMap(toHealth), Effect.orDie)
      })
    })
  )
}
