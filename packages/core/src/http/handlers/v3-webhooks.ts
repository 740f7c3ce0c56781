import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatTimestampV3 } from "../../domain/timestamp.js"
import { EVENT_TYPES } from "../../domain/webhooks/topics.js"
import { webhookIdOf } from "../../services/delivery-worker.js"
import type { DeliveryRecord } from "../../services/webhook-deliveries.js"
import { WebhookDeliveries } from "../../services/webhook-deliveries.js"
import { type SubscriptionRecord, WebhookSubscriptions } from "../../services/webhook-subscriptions.js"
import { CursorKey } from "../../services/cursor-key.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { resourceId } from "../resource-id.js"
import { orRespond } from "../respond.js"
import { collectionEnvelope, envelope } from "./envelope.js"
import { idPage } from "./id-page.js"

/** A subscription as v3 reads show it: never with its secret. */
export const subscriptionV3Of = (record: SubscriptionRecord) => ({
  object: "webhook_subscription" as const,
  id: record.id,
  topic: record.topic,
  url: record.url,
  status: record.status,
  created_at: formatTimestampV3(record.created_at),
  updated_at: formatTimestampV3(record.updated_at)
})

const orNull = (value: string | null) => (value === null ? null : formatTimestampV3(value))

/** A delivery and its attempts as the v3 delivery log shows them. */
export const deliveryV3Of = (record: DeliveryRecord) => ({
  object: "webhook_delivery" as const,
  id: record.id,
  webhook_id: webhookIdOf(record.event_id),
  event_id: record.event_id,
  topic: record.topic,
  status: record.status,
  attempt_count: record.attempt_count,
  next_attempt_at: orNull(record.next_attempt_at),
  delivered_at: orNull(record.delivered_at),
  last_error: record.last_error,
  created_at: formatTimestampV3(record.created_at),
  attempts: record.attempts.map((a) => ({ ...a, started_at: formatTimestampV3(a.started_at) }))
})

/** v3 webhook subscriptions, delivery log, redelivery and the event-type catalogue. */
export const V3WebhooksHandlers = HttpApiBuilder.group(SigncraftApi, "v3Webhooks", (handlers) =>
  Effect.gen(function*() {
    const subscriptions = yield* WebhookSubscriptions
    const deliveries = yield* WebhookDeliveries
    const cursorKey = (yield* CursorKey).secret
    const storeId = Effect.gen(function*() {
      return (yield* CurrentPrincipal).storeId
    })
    const subscriptionId = (segment: string) => resourceId(segment, "webhook subscription")

    return handlers
      .handle("listSubscriptions", ({ query }) =>
        Effect.gen(function*() {
          const store = yield* storeId
          return yield* idPage(
            query,
            { collection: "webhook_subscriptions", storeId: store, filters: {} },
            cursorKey,
            ({ limit, cursorId }) => subscriptions.list(store, { limit, afterId: cursorId }),
            subscriptionV3Of
          )
        }).pipe(orRespond))
      .handle("createSubscription", ({ payload }) =>
        Effect.gen(function*() {
          const created = yield* subscriptions.create(yield* storeId, { topic: payload.topic, url: payload.url })
          return yield* envelope({ ...subscriptionV3Of(created), secret: created.secret })
        }).pipe(orRespond))
      .handle("getSubscription", ({ params }) =>
        Effect.gen(function*() {
          const id = yield* subscriptionId(params.webhook_id)
          return yield* envelope(subscriptionV3Of(yield* subscriptions.find(yield* storeId, id)))
        }).pipe(orRespond))
      .handle("patchSubscription", ({ params, payload }) =>
        Effect.gen(function*() {
          const id = yield* subscriptionId(params.webhook_id)
          const updated = yield* subscriptions.update(yield* storeId, id, payload)
          return yield* envelope(subscriptionV3Of(updated))
        }).pipe(orRespond))
      .handle("deleteSubscription", ({ params }) =>
        Effect.gen(function*() {
          const id = yield* subscriptionId(params.webhook_id)
          yield* subscriptions.remove(yield* storeId, id)
          return yield* envelope({ object: "webhook_subscription" as const, id, deleted: true as const })
        }).pipe(orRespond))
      .handle("listDeliveries", ({ params, query }) =>
        Effect.gen(function*() {
          const id = yield* subscriptionId(params.webhook_id)
          const store = yield* storeId
          // Newest first: the cursor's id is the last one seen, and the next page goes below it.
          return yield* idPage(
            query,
            { collection: "webhook_deliveries", storeId: store, filters: { webhook_id: String(id), status: query.status } },
            cursorKey,
            ({ limit, cursorId }) =>
              deliveries.listForSubscription(store, id, { limit, beforeId: cursorId, status: query.status }),
            deliveryV3Of
          )
        }).pipe(orRespond))
      .handle("redeliver", ({ params }) =>
        Effect.gen(function*() {
          const id = yield* subscriptionId(params.webhook_id)
          const deliveryId = yield* resourceId(params.delivery_id, "webhook delivery")
          return yield* envelope(deliveryV3Of(yield* deliveries.redeliver(yield* storeId, id, deliveryId)))
        }).pipe(orRespond))
      .handle("listEventTypes", () =>
        collectionEnvelope(
          EVENT_TYPES.map((t) => ({
            object: "webhook_event_type" as const,
            topic: t.topic,
            deprecated: t.deprecated,
            deprecated_on: t.deprecated_on,
            description: t.description,
            example: t.example as Record<string, unknown>
          })),
          undefined
        ))
  }))
