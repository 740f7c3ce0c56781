import { webhookIdOf } from "../../domain/webhooks/webhook-id.js"
import type { DeliveryRecord } from "../../domain/webhooks/delivery-record.js"
import type { EndpointHealth } from "../../domain/webhooks/endpoint-health.js"
import type { SubscriptionRecord } from "../../domain/webhooks/subscription-record.js"
import { readableInstant, readableOrNever } from "./dates.js"

/** How an endpoint is doing, in one word the page can colour. */
export type HealthTone = "ok" | "warn" | "bad"

/** A subscription as the dashboard lists it, with its endpoint's health. */
export interface SubscriptionRowView {
  readonly id: number
  readonly topic: string
  readonly url: string
  readonly disabled: boolean
  /** Why a disabled subscription stopped, as people read it; null while it is active. */
  readonly disabledBecause: string | null
  readonly health: { readonly tone: HealthTone; readonly label: string }
  readonly recentFailures: number
  readonly lastDelivered: string
}

/** Why a subscription was disabled, in words: `gone` (its receiver answered 410) or `failing`. */
export const disabledBecause = (reason: string | null): string =>
  reason === "gone"
    ? "the receiver answered 410 Gone (gone), so deliveries stopped at once"
    : reason === "failing"
    ? "every delivery failed for five days (failing)"
    : `it was disabled (${reason ?? "no reason recorded"})`

/**
 * The health of an endpoint: disabled (deliveries stopped), failing (since when), failures lately
 * but delivering again, or healthy.
 */
export const healthOf = (
  status: string,
  health: EndpointHealth | undefined,
  disabledReason: string | null = null
): { readonly tone: HealthTone; readonly label: string } => {
  if (status === "disabled") return { tone: "bad", label: disabledReason === null ? "Disabled" : `Disabled (${disabledReason})` }
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
  disabledBecause: subscription.status === "disabled" ? disabledBecause(subscription.disabledReason) : null,
  health: healthOf(subscription.status, health, subscription.disabledReason),
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
  /** The start of the receiver's answer, as it sent it. */
  readonly responseExcerpt: string | null
  readonly error: string | null
  /** What made the attempt: `scheduled`, `manual` (a resend or a test) or `recovery`. */
  readonly trigger: string
}

/** A delivery of one event to one subscription, with its attempts. */
export interface DeliveryRowView {
  readonly id: number
  /** The event delivered, which a resend names. */
  readonly eventId: number
  /** The `x-webhook-id` the receiver sees, the same on every attempt. */
  readonly webhookId: string
  readonly topic: string
  readonly status: string
  readonly tone: HealthTone
  /** What made its latest attempt (or will make its first): `scheduled`, `manual` or `recovery`. */
  readonly trigger: string
  readonly created: string
  readonly nextAttempt: string | null
  readonly attempts: ReadonlyArray<AttemptView>
}

const toneOfDelivery = (status: string): HealthTone => (status === "delivered" ? "ok" : status === "pending" ? "warn" : "bad")

/** A delivery as the dashboard's delivery log shows it. */
export const deliveryRowView = (delivery: DeliveryRecord): DeliveryRowView => ({
  id: delivery.id,
  eventId: delivery.eventId,
  webhookId: webhookIdOf(delivery.eventId),
  topic: delivery.topic,
  status: delivery.status,
  tone: toneOfDelivery(delivery.status),
  // The delivery's own trigger goes back to `scheduled` once an attempt is recorded; the attempt keeps its own.
  trigger: delivery.attempts.at(-1)?.trigger ?? delivery.trigger,
  created: readableInstant(delivery.createdAt),
  nextAttempt: delivery.nextAttemptAt === null ? null : readableInstant(delivery.nextAttemptAt),
  attempts: delivery.attempts.map((attempt) => {
    const outcome = attempt.responseStatus === null ? "No answer" : `HTTP ${attempt.responseStatus}`
    return {
      number: attempt.attemptNumber,
      started: readableInstant(attempt.startedAt),
      durationMs: attempt.durationMs,
      outcome,
      succeeded: attempt.responseStatus !== null && attempt.responseStatus >= 200 && attempt.responseStatus < 300,
      responseExcerpt: attempt.responseExcerpt,
      // An error that only repeats the status says nothing the outcome does not.
      error: attempt.error === outcome ? null : attempt.error,
      trigger: attempt.trigger
    }
  })
})
