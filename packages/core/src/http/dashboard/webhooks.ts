import { Effect, Result, type Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readableInstant } from "../../presenters/dashboard/dates.js"
import { deliveryRowView, subscriptionRowView } from "../../presenters/dashboard/webhooks.js"
import { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import { ValidationFailed } from "../../domain/errors.js"
import { WebhookHealth } from "../../services/webhooks/health.js"
import { WebhookReplay } from "../../services/webhooks/replay.js"
import { MAX_SUBSCRIPTIONS_PER_STORE, WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import { ActionForm, RecoverForm, readSignedInForm, recoveryWindowOf } from "./forms.js"
import { htmlPage, pathId, seeOther } from "./respond.js"
import { noticeOf, openStore } from "./session.js"
import { type SubscriptionPageExtras, subscriptionView, webhooksView } from "./views/webhooks.js"

/** How many of a subscription's deliveries its page shows, newest first. */
const DELIVERIES_SHOWN = 50

const NOTICES = {
  resent: "The event was queued again with the same webhook id; it goes out within moments.",
  tested: "A webhook:test event was queued for this endpoint only; its attempt shows below within moments.",
  enabled: "The subscription is active again: new events are delivered to it."
} as const

// How a recovery's answer reads: how many events it queued, or why there was nothing to queue.
const recoveredNotice = (count: number): string =>
  count === 0
    ? "Nothing to recover: every event of that window was delivered already or is being sent right now."
    : `${count} event${count === 1 ? " was" : "s were"} queued again, to be sent one at a time in the order they were created.`

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

// A signed-in form on one subscription, after its anti-forgery token is checked.
const subscriptionForm = <S extends Schema.Codec<unknown, unknown>>(request: HttpServerRequest.HttpServerRequest, schema: S) =>
  Effect.gen(function*() {
    const opened = yield* openStore(request, "webhooks")
    const form = yield* readSignedInForm(request, schema, opened.viewer)
    return { opened, id: yield* subscriptionId, form }
  })

// A signed-in action on one subscription that posts nothing but its token.
const subscriptionAction = (request: HttpServerRequest.HttpServerRequest) => subscriptionForm(request, ActionForm)

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

/** POST …/webhooks/:webhook_id/events/:event_id/resend: one more attempt of the event to this subscription, as the API's resend. */
export const resendEvent = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { opened, id } = yield* subscriptionAction(request)
    yield* (yield* WebhookReplay).resend(opened.store.id, id, yield* pathId("event_id", "event"))
    return seeOther(`${opened.paths.webhook(opened.store.id, id)}?done=resent`)
  })

/** POST …/webhooks/:webhook_id/recover: every event the subscription missed in a window, queued again; the page says how many. */
export const recoverEvents = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { opened, id, form } = yield* subscriptionForm(request, RecoverForm)
    const window = recoveryWindowOf(form)
    if (Result.isFailure(window)) return yield* new ValidationFailed({ errors: window.failure })
    const recovered = yield* (yield* WebhookReplay).recover(opened.store.id, id, window.success)
    return yield* subscriptionPage(opened, id, { notice: recoveredNotice(recovered) })
  })

/** POST …/webhooks/:webhook_id/test: a webhook:test event delivered to this subscription only. */
export const sendTestEvent = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { opened, id } = yield* subscriptionAction(request)
    yield* (yield* WebhookReplay).sendTest(opened.store.id, id)
    return seeOther(`${opened.paths.webhook(opened.store.id, id)}?done=tested`)
  })
