import { Effect, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { NotFound } from "../../domain/errors.js"
import { isWebhookTopic, sampleEventPayload } from "../../domain/webhooks/topics.js"
import { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import { webhookV2Of } from "../../presenters/webhooks.js"
import { WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"

// The v2 list was never paged: it answers every subscription of the Store.
const UNPAGED = 1_000_000

/** Previous generation: webhooks CRUD and examples, over the same subscriptions as v3. */
export const V2WebhooksHandlers = HttpApiBuilder.group(SigncraftApi, "v2Webhooks", (handlers) =>
  Effect.gen(function*() {
    const subscriptions = yield* WebhookSubscriptions
    const deliveries = yield* WebhookDeliveries
    const storeId = Effect.gen(function*() {
      return (yield* CurrentPrincipal).storeId
    })

    return handlers
      .handle("list", Effect.fn("v2Webhooks.list")(function*() {
          const rows = yield* subscriptions.list(yield* storeId, { limit: UNPAGED, afterId: undefined })
          return { webhooks: rows.map(webhookV2Of) }
        }))
      .handle("create", Effect.fn("v2Webhooks.create")(function*({ payload }) {
          const created = yield* subscriptions.create(yield* storeId, {
            topic: payload.topic,
            url: payload.url,
            meta: payload.meta ?? {}
          })
          return { webhook: webhookV2Of(created) }
        }))
      .handle("get", Effect.fn("v2Webhooks.get")(function*({ params }) {
          const id = params.webhook_id
          return { webhook: webhookV2Of(yield* subscriptions.find(yield* storeId, id)) }
        }))
      .handle("replace", Effect.fn("v2Webhooks.replace")(function*({ params, payload }) {
          const id = params.webhook_id
          const updated = yield* subscriptions.update(yield* storeId, id, {
            topic: payload.topic,
            url: payload.url,
            meta: payload.meta ?? {}
          })
          return { webhook: webhookV2Of(updated) }
        }))
      .handle("delete", Effect.fn("v2Webhooks.delete")(function*({ params }) {
          const id = params.webhook_id
          yield* subscriptions.remove(yield* storeId, id)
          return { success: true }
        }))
      .handle("example", Effect.fn("v2Webhooks.example")(function*({ params }) {
          const topic = params.topic
          if (!isWebhookTopic(topic)) return yield* new NotFound({ resource: "webhook topic" })
          const latest = yield* deliveries.latestBody(yield* storeId, topic)
          // The stored body goes out as it was delivered, byte for byte.
          return Option.match(latest, {
            onNone: () => HttpServerResponse.jsonUnsafe(sampleEventPayload(topic)),
            onSome: (body) => HttpServerResponse.text(body, { contentType: "application/json" })
          })
        }))
  }))
