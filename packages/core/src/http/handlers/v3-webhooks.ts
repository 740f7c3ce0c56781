import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter } from "../../domain/errors.js"
import { formatTimestampV3 } from "../../domain/pricing/timestamp.js"
import { EVENT_TYPES } from "../../domain/webhooks/topics.js"
import { webhookIdOf } from "../../services/delivery-worker.js"
import type { DeliveryRecord } from "../../services/webhook-deliveries.js"
import { WebhookDeliveries } from "../../services/webhook-deliveries.js"
import { type SubscriptionRecord, WebhookSubscriptions } from "../../services/webhook-subscriptions.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { cutPage, parsePageRequest } from "../paging.js"
import { resourceId } from "../resource-id.js"
import { orRespond } from "../respond.js"
import { collectionEnvelope, envelope } from "./envelope.js"

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

const LIST_FILTERS = {}

/** v3 webhook subscriptions, delivery log, redelivery and the event-type catalogue. */
export const V3WebhooksHandlers = HttpApiBuilder.group(SigncraftApi, "v3Webhooks", (handlers) =>
  Effect.gen(function*() {
    const subscriptions = yield* WebhookSubscriptions
    const deliveries = yield* WebhookDeliveries
    const storeId = Effect.gen(function*() {
      return (yield* CurrentPrincipal).storeId
    })
    const subscriptionId = (segment: string) => resourceId(segment, "webhook subscription")

    return handlers
      .handle("listSubscriptions", ({ query }) =>
        Effect.gen(function*() {
          const request = parsePageRequest(query, LIST_FILTERS)
          if (!request.ok) return yield* new InvalidParameter({ errors: request.errors })
          const { page } = request
          const rows = yield* subscriptions.list(yield* storeId, {
            limit: page.limit + 1,
            afterId: page.after === undefined ? undefined : Number(page.after)
          })
          const { items, nextCursor } = cutPage(rows, page, (row) => String(row.id), LIST_FILTERS)
          return yield* collectionEnvelope(items.map(subscriptionV3Of), nextCursor)
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
          const filters = { webhook_id: String(id), status: query.status }
          const request = parsePageRequest(query, filters)
          if (!request.ok) return yield* new InvalidParameter({ errors: request.errors })
          const { page } = request
          const rows = yield* deliveries.listForSubscription(yield* storeId, id, {
            limit: page.limit + 1,
            beforeId: page.after === undefined ? undefined : Number(page.after),
            status: query.status
          })
          const { items, nextCursor } = cutPage(rows, page, (row) => String(row.id), filters)
          return yield* collectionEnvelope(items.map(deliveryV3Of), nextCursor)
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
