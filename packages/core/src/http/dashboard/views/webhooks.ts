import type { DeliveryRowView, SubscriptionRowView } from "../../../presenters/dashboard/webhooks.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, postForm, type StoreContext, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"
import { badge, cardTable, notice } from "./table.js"

/** The webhook subscriptions of a Store with their endpoints' health. */
export const webhooksView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  subscriptions: ReadonlyArray<SubscriptionRowView>
): string =>
  dashboardPage(
    { title: "Webhooks", paths, viewer, store },
    `<section class="panel" aria-labelledby="subs"><h2 id="subs">Subscriptions</h2>${
      subscriptions.length === 0
        ? `<p class="muted">This Store has no webhook subscriptions. Integrations create them with <code>POST /api/v3/webhook-subscriptions</code>.</p>`
        : cardTable(
          "Failures count attempts in the last 24 hours.",
          ["Topic", "Endpoint", "Health", "Failures (24 h)", "Last delivered", ""],
          subscriptions.map((s) => [
            `<code>${escapeHtml(s.topic)}</code>`,
            `<span class="mono">${escapeHtml(s.url)}</span>`,
            badge(s.health.tone, s.health.label),
            String(s.recentFailures),
            escapeHtml(s.lastDelivered),
            `<a href="${escapeHtml(paths.webhook(store.id, s.id))}">Deliveries<span class="vh"> of ${escapeHtml(s.topic)} to ${
              escapeHtml(s.url)
            }</span></a>`
          ])
        )
    }</section>`
  )

/** A secret just rotated: shown once, with the end of the overlap during which the old one still signs. */
export interface RotatedSecret {
  readonly secret: string
  readonly overlapEnds: string
}

/** What the subscription page shows besides its deliveries. */
export interface SubscriptionPageExtras {
  readonly rotated?: RotatedSecret
  readonly notice?: string
}

const attemptsList = (delivery: DeliveryRowView): string =>
  delivery.attempts.length === 0
    ? `<span class="muted">Not attempted yet</span>`
    : `<ol class="attempts">${
      delivery.attempts.map((a) =>
        `<li>${badge(a.succeeded ? "ok" : "bad", a.outcome)} <span class="muted">${escapeHtml(a.trigger)}, ${escapeHtml(a.started)}, ${a.durationMs} ms</span>${
          a.responseExcerpt === null || a.responseExcerpt === ""
            ? ""
            : `<code class="excerpt">${escapeHtml(a.responseExcerpt)}</code>`
        }${a.error === null ? "" : `<code class="excerpt">${escapeHtml(a.error)}</code>`}</li>`
      ).join("")
    }</ol>`

const rotatedPanel = (rotated: RotatedSecret): string =>
  `<div class="panel" role="status"><h2>New signing secret</h2>
<p>Copy it now: this is the only time signcraft shows it. Until <strong>${
    escapeHtml(rotated.overlapEnds)
  }</strong> deliveries carry a signature made with the previous secret too, so your receiver keeps verifying while you switch it over.</p>
<div class="secret"><label for="new-secret" class="vh">New signing secret</label><input id="new-secret" type="text" readonly value="${
    escapeHtml(rotated.secret)
  }" data-copy></div></div>`

/** The actions on a subscription, each its own small form: re-enable (when disabled), a test event, a new secret. */
const subscriptionActions = (paths: DashboardPaths, viewer: Viewer, storeId: number, subscription: SubscriptionRowView): string => {
  const action = (slug: string, label: string, className = "secondary") =>
    postForm(paths.webhookAction(storeId, subscription.id, slug), viewer, `<button type="submit" class="${className}">${escapeHtml(label)}</button>`, ` class="inline"`)
  return `<div class="actions">${subscription.disabled ? action("enable", "Re-enable", "") : ""}${action("test", "Send a test event")}${
    action("rotate-secret", "Rotate secret")
  }</div>`
}

// The recovery form: a window in UTC, like every time the dashboard shows.
const recoverPanel = (paths: DashboardPaths, viewer: Viewer, storeId: number, subscription: SubscriptionRowView): string =>
  `<section class="panel" aria-labelledby="recover"><h2 id="recover">Recover missed events</h2>
<p class="muted">Sends again, in the order they were created, every event of this topic created in the window that has no successful delivery to this endpoint yet. Times are UTC.</p>${
    postForm(
      paths.webhookAction(storeId, subscription.id, "recover"),
      viewer,
      `<label for="since">Since (UTC)</label><input id="since" name="since" type="datetime-local" required>
<label for="until">Until (UTC, optional: now when empty)</label><input id="until" name="until" type="datetime-local">
<div class="actions"><button type="submit">Recover events</button></div>`
    )
  }</section>`

/** One subscription: its health, its actions and its deliveries with their attempts. */
export const subscriptionView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  subscription: SubscriptionRowView,
  deliveries: ReadonlyArray<DeliveryRowView>,
  extras: SubscriptionPageExtras = {}
): string =>
  dashboardPage(
    { title: `Webhook: ${subscription.topic}`, paths, viewer, store },
    `${notice(extras.notice)}${extras.rotated === undefined ? "" : rotatedPanel(extras.rotated)}
<section class="panel" aria-labelledby="endpoint"><h2 id="endpoint">Endpoint</h2>
<p class="mono">${escapeHtml(subscription.url)}</p>
${
      subscription.disabledBecause === null
        ? ""
        : `<p class="alert">Deliveries are stopped: ${escapeHtml(subscription.disabledBecause)}. Send a test event to check the receiver is back, then re-enable it.</p>`
    }<p>${badge(subscription.health.tone, subscription.health.label)} <span class="muted">${subscription.recentFailures} failed attempt${subscription.recentFailures === 1 ? "" : "s"} in the last 24 hours; last delivered: ${
      escapeHtml(subscription.lastDelivered)
    }.</span></p>${subscriptionActions(paths, viewer, store.id, subscription)}</section>
${recoverPanel(paths, viewer, store.id, subscription)}
<section class="panel" aria-labelledby="deliveries"><h2 id="deliveries">Deliveries</h2>${
      deliveries.length === 0
        ? `<p class="muted">No event has been sent to this endpoint yet.</p>`
        : cardTable(
          "Newest first. Each delivery keeps its webhook id on every attempt.",
          ["Event", "Status", "Trigger", "Attempts", "Next attempt", ""],
          deliveries.map((d) => [
            `<code>${escapeHtml(d.webhookId)}</code><br><span class="muted">${escapeHtml(d.topic)}, ${escapeHtml(d.created)}</span>`,
            badge(d.tone, d.status),
            escapeHtml(d.trigger),
            attemptsList(d),
            d.nextAttempt === null ? `<span class="muted">None</span>` : escapeHtml(d.nextAttempt),
            postForm(
              paths.resendEvent(store.id, subscription.id, d.eventId),
              viewer,
              `<button type="submit" class="secondary">Resend<span class="vh"> ${escapeHtml(d.webhookId)}</span></button>`
            )
          ])
        )
    }</section>`
  )
