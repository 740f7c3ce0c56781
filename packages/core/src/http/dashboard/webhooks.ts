import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readableInstant } from "../../presenters/dashboard/dates.js"
import { deliveryRowView, subscriptionRowView } from "../../presenters/dashboard/webhooks.js"
import { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import { WebhookHealth } from "../../services/webhooks/health.js"
import { MAX_SUBSCRIPTIONS_PER_STORE, WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import { ActionForm, readSignedInForm } from "./forms.js"
import { htmlPage, pathId, seeOther } from "./respond.js"
import { noticeOf, openStore } from "./session.js"
import { type SubscriptionPageExtras, subscriptionView, webhooksView } from "./views/webhooks.js"

/** How many of a subscription's deliveries its page shows, newest first. */
const DELIVERIES_SHOWN = 50

const NOTICES = {
  resent: "The delivery was queued again; it goes out within moments.",
  enabled: "The subscription is active again: new events are delivered to it."
} as const

const subscriptionId = pathId("webhook_id", "webhook subscription")

/** GET /dashboard/stores/:store_id/webhooks: every subscription with its endpoint's health. */
export const listWebhooks = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "webhooks")
    const subscriptions = yield* (yield* WebhookSubscriptions).list(store.id, { limit: MAX_SUBSCRIPTIONS_PER_STORE, afterId: undefined })
    const health = yield* (yield* WebhookHealth).forStore(store.id)
    const rows = subscriptions.map((s) => subscriptionRowView(s, health.find((h) => h.subscriptionId === s.id)))
    return htmlPage(webhooksView(paths, viewer, context, rows))
  })

type OpenedStore = Effect.Success<ReturnType<typeof openStore>>

// One subscription's page, with what an action just produced.
const subscriptionPage = ({ viewer, store, context, paths }: OpenedStore, id: number, extras: SubscriptionPageExtras) =>
  Effect.gen(function*() {
    const subscription = yield* (yield* WebhookSubscriptions).find(store.id, id)
    const health = (yield* (yield* WebhookHealth).forStore(store.id)).find((h) => h.subscriptionId === id)
    const deliveries = yield* (yield* WebhookDeliveries).listForSubscription(store.id, id, { limit: DELIVERIES_SHOWN, beforeId: undefined })
    return htmlPage(subscriptionView(paths, viewer, context, subscriptionRowView(subscription, health), deliveries.map(deliveryRowView), extras))
  })

/** GET /dashboard/stores/:store_id/webhooks/:webhook_id: the subscription, its actions and its deliveries with their attempts. */
export const showWebhook = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const opened = yield* openStore(request, "webhooks")
    return yield* subscriptionPage(opened, yield* subscriptionId, { notice: noticeOf(request, NOTICES) })
  })

// A signed-in action on one subscription, after its anti-forgery token is checked.
const subscriptionAction = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const opened = yield* openStore(request, "webhooks")
    yield* readSignedInForm(request, ActionForm, opened.viewer)
    return { opened, id: yield* subscriptionId }
  })

/** POST …/webhooks/:webhook_id/rotate-secret: a new signing secret, shown once, with the old one's overlap. */
export const rotateSecret = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { opened, id } = yield* subscriptionAction(request)
    const rotated = yield* (yield* WebhookSubscriptions).rotateSecret(opened.store.id, id)
    return yield* subscriptionPage(opened, id, {
      rotated: { secret: rotated.subscription.secret, overlapEnds: readableInstant(rotated.previousSecretExpiresAt) }
    })
  })

/** POST …/webhooks/:webhook_id/enable: re-enables a subscription disabled for failing. */
export const enableWebhook = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { opened, id } = yield* subscriptionAction(request)
    yield* (yield* WebhookSubscriptions).update(opened.store.id, id, { status: "active" })
    return seeOther(`${opened.paths.webhook(opened.store.id, id)}?done=enabled`)
  })

/** POST …/webhooks/:webhook_id/deliveries/:delivery_id/resend: sends the delivery's event again now. */
export const resendDelivery = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { opened, id } = yield* subscriptionAction(request)
    const deliveryId = yield* pathId("delivery_id", "webhook delivery")
    yield* (yield* WebhookDeliveries).redeliver(opened.store.id, id, deliveryId)
    return seeOther(`${opened.paths.webhook(opened.store.id, id)}?done=resent`)
  })
