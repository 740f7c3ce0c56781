import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { decodeSingleRow, RowId, RowNumber } from "../storage/rows.js"

const EnqueuedRow = Schema.Struct({ id: RowId, deliveries: RowNumber })

/** The webhook topics the service emits. */
export type EventTopic = "product:created" | "order:created" | "form:submitted"

/** An event recorded in the outbox. */
export interface RecordedEvent {
  readonly id: number
  readonly storeId: number
  readonly topic: EventTopic
  /** How many deliveries were queued: one per active subscription of the topic in the Store. */
  readonly deliveries: number
}

/**
 * The transactional outbox. Call `enqueue` inside the transaction of the change that caused the
 * event (`sql.withTransaction`): the event then commits or rolls back with it, so no event is
 * announced for a change that did not happen and none is lost for one that did. The same
 * statement fans the event out into one pending delivery per active subscription of its topic in
 * the Store, so a subscription that exists when the change commits always gets the event; the
 * delivery worker sends them afterwards.
 */
export class Outbox extends Context.Service<Outbox, {
  readonly enqueue: (storeId: number, topic: EventTopic, payload: unknown) => Effect.Effect<RecordedEvent>
  /**
   * Makes `change` (a data-modifying statement without RETURNING, such as an INSERT) and records
   * its event in one statement: atomic without a transaction, and one round trip instead of four
   * (BEGIN, the change, the event, COMMIT).
   */
  readonly enqueueWith: (
    change: Statement.Fragment,
    storeId: number,
    topic: EventTopic,
    payload: unknown
  ) => Effect.Effect<RecordedEvent>
}>()("signcraft/Outbox") {
  static readonly layer = Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const enqueued = decodeSingleRow(EnqueuedRow)
      const record = (change: Statement.Fragment | undefined, storeId: number, topic: EventTopic, payload: unknown) => {
        const body = JSON.stringify(payload)
        // One statement: atomic even when a caller forgot the transaction.
        return sql`
          WITH ${change === undefined ? sql`` : sql`change AS (${change}),`} event AS (
            INSERT INTO events ${sql.insert({ store_id: storeId, topic, payload: body, body })}
            RETURNING id
          ), fanned AS (
            INSERT INTO webhook_deliveries (event_id, subscription_id)
            SELECT event.id, s.id FROM event, webhook_subscriptions s
            WHERE s.store_id = ${storeId} AND s.topic = ${topic} AND s.status = 'active' AND s.deleted_at IS NULL
            RETURNING id
          )
          SELECT event.id, (SELECT count(*) FROM fanned) AS deliveries FROM event`.pipe(
          Effect.orDie,
          Effect.flatMap(enqueued),
          Effect.map((row) => ({ id: row.id, storeId, topic, deliveries: row.deliveries }))
        )
      }
      return Outbox.of({
        enqueue: (storeId, topic, payload) => record(undefined, storeId, topic, payload),
        enqueueWith: record
      })
    })
  )
}
