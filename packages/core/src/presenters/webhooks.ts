import { formatTimestampV2, formatTimestampV3 } from "../domain/timestamp.js"
import { webhookIdOf } from "../domain/webhooks/webhook-id.js"
import type { DeliveryRecord } from "../domain/webhooks/delivery-record.js"
import type { EventRecord } from "../domain/webhooks/event-record.js"
import type { SubscriptionRecord } from "../domain/webhooks/subscription-record.js"

/** A subscription as v3 reads show it: never with its secret. */
export const subscriptionV3Of = (record: SubscriptionRecord) => ({
  object: "webhook_subscription" as const,
  id: record.id,
  topic: record.topic,
  url: record.url,
  status: record.status,
  disabled_reason: record.disabledReason,
  signature_scheme: record.signatureScheme,
  created_at: formatTimestampV3(record.createdAt),
  updated_at: formatTimestampV3(record.updatedAt)
})

const orNull = (value: string | null) => (value === null ? null : formatTimestampV3(value))

/** A delivery and its attempts as the v3 delivery log shows them. */
export const deliveryV3Of = (record: DeliveryRecord) => ({
  object: "webhook_delivery" as const,
  id: record.id,
  subscription_id: record.subscriptionId,
  message_id: webhookIdOf(record.eventId),
  webhook_id: webhookIdOf(record.eventId),
  event_id: record.eventId,
  topic: record.topic,
  status: record.status,
  trigger: record.trigger,
  attempt_count: record.attemptCount,
  next_attempt_at: orNull(record.nextAttemptAt),
  delivered_at: orNull(record.deliveredAt),
  last_error: record.lastError,
  created_at: formatTimestampV3(record.createdAt),
  attempts: record.attempts.map((a) => ({
    attempt_number: a.attemptNumber,
    started_at: formatTimestampV3(a.startedAt),
    duration_ms: a.durationMs,
    response_status: a.responseStatus,
    response_body: a.responseExcerpt,
    error: a.error,
    status: a.status,
    next_attempt_at: orNull(a.nextAttemptAt),
    trigger: a.trigger
  }))
})

/** An event as the events API shows it: its id is the `x-webhook-id` of its deliveries, `data` their body. */
export const eventV3Of = (record: EventRecord) => ({
  object: "event" as const,
  id: webhookIdOf(record.id),
  type: record.topic,
  created_at: formatTimestampV3(record.createdAt),
  data: JSON.parse(record.body) as unknown,
  delivery_status: record.deliveryStatus
})

/** A subscription in the v2 shape: secret included, `meta` always carrying `source`. */
export const webhookV2Of = (record: SubscriptionRecord) => ({
  webhook_id: record.id,
  topic: record.topic,
  url: record.url,
  status: record.status,
  secret: record.secret,
  meta: { ...record.meta, source: record.meta.source ?? null },
  created_at: formatTimestampV2(record.createdAt),
  updated_at: formatTimestampV2(record.updatedAt)
})
