import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound } from "../../domain/errors.js"
import { EVENT_DELIVERY_STATUSES, type EventDeliveryStatus } from "../../domain/webhooks/delivery-log.js"
import { decodeFirstRow, decodeRows, isStorableBigId, RowId } from "../../storage/rows.js"
import { snakeStruct } from "../../storage/table.js"
import type { EventRecord } from "../../domain/webhooks/event-record.js"

export type { EventRecord } from "../../domain/webhooks/event-record.js"

/** Which events a list keeps; every member optional. */
export interface EventFilters {
  readonly topic?: string | undefined
  /** Exclusive bounds on the creation time. */
  readonly createdAfter?: Date | undefined
  readonly createdBefore?: Date | undefined
  readonly deliveryStatus?: EventDeliveryStatus | undefined
}

const EventRow = snakeStruct({
  id: RowId,
  topic: Schema.String,
  body: Schema.String,
  createdAt: Schema.String,
  deliveryStatus: Schema.NullOr(Schema.Literals(EVENT_DELIVERY_STATUSES))
})

const notFound = new NotFound({ resource: "event" })

/**
 * The Store's events (the outbox), kept `RETENTION_DAYS` by the retention pass. An event's
 * delivery status sums up its deliveries: `pending` while any is still to be tried, else `failed`
 * when any gave up (or was cancelled by its subscription's disabling, not its deletion), else
 * `delivered`.
 */
export class WebhookEvents extends Context.Service<WebhookEvents, {
  /** One page, newest first, below `beforeId`; fetches `limit` rows. */
  readonly list: (
    storeId: number,
    filters: EventFilters,
    page: { readonly limit: number; readonly beforeId: number | undefined }
  ) => Effect.Effect<ReadonlyArray<EventRecord>>
  /** One event of the Store. */
  readonly find: (storeId: number, eventId: number) => Effect.Effect<EventRecord, NotFound>
}>()("signcraft/WebhookEvents") {
  static readonly layer = Layer.effect(
    WebhookEvents,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const toEvents = decodeRows(EventRow)
      const firstEvent = decodeFirstRow(EventRow)
      // The one statement of what an event reads as; `where` narrows it to the events wanted.
      const selectEvents = (where: ReturnType<typeof sql.and>) =>
        sql`
          SELECT * FROM (
            SELECT e.id, e.topic, e.body,
              to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
              (SELECT CASE
                  WHEN bool_or(d.status = 'pending') THEN 'pending'
                  WHEN bool_or(d.status = 'failed' OR (d.status = 'cancelled' AND s.deleted_at IS NULL)) THEN 'failed'
                  WHEN bool_or(d.status = 'delivered') THEN 'delivered'
                END
                FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
                WHERE d.event_id = e.id) AS delivery_status
            FROM events e WHERE ${where}
          ) AS event`

      const list = Effect.fn("WebhookEvents.list")(function*(
        storeId: number,
        filters: EventFilters,
        page: { readonly limit: number; readonly beforeId: number | undefined }
      ) {
        const conditions = [
          sql`e.store_id = ${storeId}`,
          ...(page.beforeId === undefined ? [] : [sql`e.id < ${page.beforeId}`]),
          ...(filters.topic === undefined ? [] : [sql`e.topic = ${filters.topic}`]),
          ...(filters.createdAfter === undefined ? [] : [sql`e.created_at > ${filters.createdAfter}`]),
          ...(filters.createdBefore === undefined ? [] : [sql`e.created_at < ${filters.createdBefore}`])
        ]
        const rows = yield* sql`
          ${selectEvents(sql.and(conditions))}
          ${filters.deliveryStatus === undefined ? sql`` : sql`WHERE delivery_status = ${filters.deliveryStatus}`}
          ORDER BY id DESC LIMIT ${page.limit}`.pipe(Effect.orDie)
        return yield* toEvents(rows)
      })

      const find = Effect.fn("WebhookEvents.find")(function*(storeId: number, eventId: number) {
        if (!isStorableBigId(eventId)) return yield* Effect.fail(notFound)
        const rows = yield* selectEvents(sql.and([sql`e.store_id = ${storeId}`, sql`e.id = ${eventId}`])).pipe(Effect.orDie)
        const found = yield* firstEvent(rows)
        return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
      })

      return WebhookEvents.of({ list, find })
    })
  )
}
