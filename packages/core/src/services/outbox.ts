import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { singleRow } from "../storage/rows.js"

/** The webhook topics the service emits. */
export type EventTopic = "product:created" | "order:created" | "form:submitted"

/** An event recorded in the outbox. */
export interface RecordedEvent {
  readonly id: number
  readonly store_id: number
  readonly topic: EventTopic
}

/**
 * The transactional outbox. Call `enqueue` inside the transaction of the change that caused the
 * event (`sql.withTransaction`): the event then commits or rolls back with it, so no event is
 * announced for a change that did not happen and none is lost for one that did. Delivery to
 * subscriptions happens afterwards, from the outbox.
 */
export class Outbox extends Context.Service<Outbox, {
  readonly enqueue: (storeId: number, topic: EventTopic, payload: unknown) => Effect.Effect<RecordedEvent>
}>()("signcraft/Outbox") {
  static readonly layer = Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return Outbox.of({
        enqueue: (storeId, topic, payload) =>
          sql<{ id: number | string }>`
            INSERT INTO events ${sql.insert({ store_id: storeId, topic, payload: JSON.stringify(payload) })}
            RETURNING id`.pipe(
            Effect.flatMap(singleRow),
            Effect.map((row) => ({ id: Number(row.id), store_id: storeId, topic })),
            Effect.orDie
          )
      })
    })
  )
}
