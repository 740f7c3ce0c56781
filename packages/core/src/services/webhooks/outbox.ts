import { Context, Effect, Layer, Option } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { batchRows } from "../../storage/batch-rows.js"
import { decodeRows, RowId, RowNumber, singleRow } from "../../storage/rows.js"
import { snakeStruct } from "../../storage/table.js"

const EnqueuedRow = snakeStruct({ id: RowId, storeId: RowId, deliveries: RowNumber })

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
   * `enqueue` for an event whose body is kept elsewhere too (a quote is its form submission):
   * recorded only when an active subscription of the topic will receive it, so a Store with no
   * subscriber does not store the body a second time. Nothing when none exists.
   */
  readonly enqueueIfSubscribed: (storeId: number, topic: EventTopic, payload: unknown) => Effect.Effect<Option.Option<RecordedEvent>>
  /**
   * Makes `changes` (data-modifying statements without RETURNING, such as an INSERT) and records
   * one event of `topic` per entry of `events`, in one statement: atomic without a transaction,
   * and one round trip however many events (a group commit's batch of orders, say). Answers the
   * recorded events in the order given.
   */
  readonly enqueueWith: (
    changes: ReadonlyArray<Statement.Fragment>,
    topic: EventTopic,
    events: ReadonlyArray<{ readonly storeId: number; readonly payload: unknown }>
  ) => Effect.Effect<ReadonlyArray<RecordedEvent>>
}>()("signcraft/Outbox") {
  static readonly layer = Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const enqueued = decodeRows(EnqueuedRow)
      const record = (
        changes: ReadonlyArray<Statement.Fragment>,
        topic: EventTopic,
        events: ReadonlyArray<{ readonly storeId: number; readonly payload: unknown }>,
        onlySubscribed = false
      ) => {
        const input = events.map((event, n) => ({ n, store_id: event.storeId, body: event.payload }))
        // One statement: atomic even when a caller forgot the transaction. Events are inserted in
        // the order given, so their ids ascend in that order.
        return sql`
          WITH ${sql.join("", false)(changes.map((change, n) => sql`${sql.literal(`change_${n}`)} AS (${change}),`))} input AS (
            SELECT * FROM ${batchRows(sql, input, "n integer, store_id integer, body json")} AS e
          ), event AS (
            INSERT INTO events (store_id, topic, body)
            SELECT store_id, ${topic}, body::text FROM input
            ${onlySubscribed ? sql`WHERE EXISTS (
              SELECT 1 FROM webhook_subscriptions s
              WHERE s.store_id = input.store_id AND s.topic = ${topic} AND s.status = 'active' AND s.deleted_at IS NULL)` : sql``}
            ORDER BY n
            RETURNING id, store_id
          ), fanned AS (
            INSERT INTO webhook_deliveries (event_id, subscription_id)
            SELECT event.id, s.id FROM event JOIN webhook_subscriptions s
              ON s.store_id = event.store_id AND s.topic = ${topic} AND s.status = 'active' AND s.deleted_at IS NULL
            RETURNING event_id
          )
          SELECT event.id, event.store_id, (SELECT count(*) FROM fanned WHERE fanned.event_id = event.id) AS deliveries
          FROM event ORDER BY event.id`.pipe(
          Effect.orDie,
          Effect.flatMap(enqueued),
          Effect.map((rows) => rows.map((row) => ({ id: row.id, storeId: row.storeId, topic, deliveries: row.deliveries })))
        )
      }
      return Outbox.of({
        enqueue: (storeId, topic, payload) =>
          Effect.flatMap(record([], topic, [{ storeId, payload }]), singleRow),
        enqueueIfSubscribed: (storeId, topic, payload) =>
          Effect.map(record([], topic, [{ storeId, payload }], true), (events) => Option.fromNullishOr(events[0])),
        enqueueWith: record
      })
    })
  )
}
