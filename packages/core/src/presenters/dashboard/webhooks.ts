import { webhookIdOf } from "../../domain/webhooks/webhook-id.js"
import type { DeliveryRecord } from "../../services/webhooks/deliveries.js"
import type { EndpointHealth } from "../../services/webhooks/health.js"
import type { SubscriptionRecord } from "../../services/webhooks/subscriptions.js"
import { readableInstant, readableOrNever } from "./dates.js"

/** How an endpoint is doing, in one word the page can colour. */
export type HealthTone = "ok" | "warn" | "bad"

/** A subscription as the dashboard lists it, with its endpoint's health. */
export interface SubscriptionRowView {
  readonly id: number
  readonly topic: string
  readonly url: string
  readonly disabled: boolean
  readonly health: { readonly tone: HealthTone; readonly label: string }
  readonly recentFailures: number
  readonly lastDelivered: string
}

/**
 * The health of an endpoint: disabled (deliveries stopped), failing (since when), failures lately
 * but delivering again, or healthy.
 */
export const healthOf = (
  status: string,
  health: EndpointHealth | undefined
): { readonly tone: HealthTone; readonly label: string } => {
  if (status === "disabled") return { tone: "bad", label: "Disabled" }
  if (health?.failingSince != null) return { tone: "bad", label: `Failing since ${readableInstant(health.failingSince)}` }
  if (health !== undefined && health.recentFailures > 0) return { tone: "warn", label: "Recovered after failures" }
  return { tone: "ok", label: "Healthy" }
}

/** A subscription and its endpoint's health as the dashboard lists them. */
export const subscriptionRowView = (subscription: SubscriptionRecord, health: EndpointHealth | undefined): SubscriptionRowView => ({
  id: subscription.id,
  topic: subscription.topic,
  url: subscription.url,
  disabled: subscription.status === "disabled",
  health: healthOf(subscription.status, health),
  recentFailures: health?.recentFailures ?? 0,
  lastDelivered: readableOrNever(health?.lastDeliveredAt ?? null)
})

/** One attempt of a delivery as the dashboard shows it. */
export interface AttemptView {
  readonly number: number
  readonly started: string
  readonly durationMs: number
  /** The receiver's status code, or what stopped the attempt getting one. */
  readonly outcome: string
  readonly succeeded: boolean
  readonly error: string | null
}

/** A delivery of one event to one subscription, with its attempts. */
export interface DeliveryRowView {
  readonly id: number
  /** The `x-webhook-id` the receiver sees, the same on every attempt. */
  readonly webhookId: string
  readonly topic: string
  readonly status: string
  readonly tone: HealthTone
  readonly created: string
  readonly nextAttempt: string | null
  readonly attempts: ReadonlyArray<AttemptView>
  /** Whether it can be sent again now (it is not waiting for an attempt already). */
  readonly resendable: boolean
}

const toneOfDelivery = (status: string): HealthTone => (status === "delivered" ? "ok" : status === "pending" ? "warn" : "bad")

/** A delivery as the dashboard's delivery log shows it. */
export const deliveryRowView = (delivery: DeliveryRecord): DeliveryRowView => ({
  id: delivery.id,
  webhookId: webhookIdOf(delivery.eventId),
  topic: delivery.topic,
  status: delivery.status,
  tone: toneOfDelivery(delivery.status),
  created: readableInstant(delivery.createdAt),
  nextAttempt: delivery.nextAttemptAt === null ? null : readableInstant(delivery.nextAttemptAt),
  attempts: delivery.attempts.map((attempt) => ({
    number: attempt.attemptNumber,
    started: readableInstant(attempt.startedAt),
    durationMs: attempt.durationMs,
    outcome: attempt.responseStatus === null ? "No answer" : `HTTP ${attempt.responseStatus}`,
    succeeded: attempt.responseStatus !== null && attempt.responseStatus >= 200 && attempt.responseStatus < 300,
    error: attempt.error
  })),
  resendable: delivery.status !== "cancelled"
})
