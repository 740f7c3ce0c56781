import { formatTimestampV3 } from "../../domain/timestamp.js"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SIGNATURE_SCHEME_DESCRIPTIONS } from "../../domain/webhooks/signature-schemes.js"
import { TEST_EVENT_TYPE } from "../../domain/webhooks/test-event.js"
import { EVENT_TYPES } from "../../domain/webhooks/topics.js"
import { deliveryV3Of, subscriptionV3Of } from "../../presenters/webhooks.js"
import { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import { WebhookReplay } from "../../services/webhooks/replay.js"
import { WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import { CursorKey } from "../../services/credentials/cursor-key.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { collectionEnvelope, envelope } from "./envelope.js"
import { idPage } from "./id-page.js"

/** v3 webhook subscriptions, delivery log, redelivery and the event-type catalogue. */
export const V3WebhooksHandlers = HttpApiBuilder.group(SigncraftApi, "v3Webhooks", (handlers) =>
  Effect.gen(function*() {
    const subscriptions = yield* WebhookSubscriptions
    const deliveries = yield* WebhookDeliveries
    const replay = yield* WebhookReplay
    const cursorKey = (yield* CursorKey).secret
    const storeId = Effect.gen(function*() {
      return (yield* CurrentPrincipal).storeId
    })

    return handlers
      .handle("listSubscriptions", Effect.fn("v3Webhooks.listSubscriptions")(function*({ query }) {
          const store = yield* storeId
          return yield* idPage(
            query,
            { collection: "webhook_subscriptions", storeId: store, filters: {} },
            cursorKey,
            ({ limit, cursorId }) => subscriptions.list(store, { limit, afterId: cursorId }),
            subscriptionV3Of
          )
        }))
      .handle("createSubscription", Effect.fn("v3Webhooks.createSubscription")(function*({ payload }) {
          const created = yield* subscriptions.create(yield* storeId, {
            topic: payload.topic,
            url: payload.url,
            ...(payload.signature_scheme === undefined ? {} : { signatureScheme: payload.signature_scheme })
          })
          return yield* envelope({ ...subscriptionV3Of(created), secret: created.secret })
        }))
      .handle("getSubscription", Effect.fn("v3Webhooks.getSubscription")(function*({ params }) {
          const id = params.webhook_id
          return yield* envelope(subscriptionV3Of(yield* subscriptions.find(yield* storeId, id)))
        }))
      .handle("patchSubscription", Effect.fn("v3Webhooks.patchSubscription")(function*({ params, payload }) {
          const id = params.webhook_id
          const updated = yield* subscriptions.update(yield* storeId, id, payload)
          return yield* envelope(subscriptionV3Of(updated))
        }))
      .handle("rotateSecret", Effect.fn("v3Webhooks.rotateSecret")(function*({ params }) {
          const rotated = yield* subscriptions.rotateSecret(yield* storeId, params.webhook_id)
          return yield* envelope({
            ...subscriptionV3Of(rotated.subscription),
            secret: rotated.subscription.secret,
            previous_secret_expires_at: formatTimestampV3(rotated.previousSecretExpiresAt)
          })
        }))
      .handle("deleteSubscription", Effect.fn("v3Webhooks.deleteSubscription")(function*({ params }) {
          const id = params.webhook_id
          yield* subscriptions.remove(yield* storeId, id)
          return yield* envelope({ object: "webhook_subscription" as const, id, deleted: true as const })
        }))
      .handle("listDeliveries", Effect.fn("v3Webhooks.listDeliveries")(function*({ params, query }) {
          const id = params.webhook_id
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
        }))
      .handle("redeliver", Effect.fn("v3Webhooks.redeliver")(function*({ params }) {
          const id = params.webhook_id
          const deliveryId = params.delivery_id
          return yield* envelope(deliveryV3Of(yield* deliveries.redeliver(yield* storeId, id, deliveryId)))
        }))
      .handle("resendEvent", Effect.fn("v3Webhooks.resendEvent")(function*({ params }) {
          const resent = yield* replay.resend(yield* storeId, params.webhook_id, params.event_id)
          return yield* envelope(deliveryV3Of(resent))
        }))
      .handle("recover", Effect.fn("v3Webhooks.recover")(function*({ params, payload }) {
          const recovered = yield* replay.recover(yield* storeId, params.webhook_id, {
            since: new Date(payload.since),
            until: payload.until === undefined ? undefined : new Date(payload.until)
          })
          return yield* envelope({ object: "webhook_recovery" as const, recovered })
        }))
      .handle("sendTestEvent", Effect.fn("v3Webhooks.sendTestEvent")(function*({ params }) {
          return yield* envelope(deliveryV3Of(yield* replay.sendTest(yield* storeId, params.webhook_id)))
        }))
      .handle("listEventTypes", () =>
        collectionEnvelope(
          [...EVENT_TYPES, TEST_EVENT_TYPE].map((t) => ({
            object: "webhook_event_type" as const,
            topic: t.topic,
            deprecated: t.deprecated,
            deprecated_on: t.deprecated_on,
            description: t.description,
            example: t.example as Record<string, unknown>,
            signature_schemes: SIGNATURE_SCHEME_DESCRIPTIONS
          })),
          undefined
        ))
  }))
