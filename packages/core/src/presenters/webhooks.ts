import { formatTimestampV2, formatTimestampV3 } from "../domain/timestamp.js"
import { webhookIdOf } from "../domain/webhooks/webhook-id.js"
import type { DeliveryRecord } from "../services/webhook-deliveries.js"
import type { SubscriptionRecord } from "../services/webhook-subscriptions.js"

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
  subscription_id: record.subscription_id,
  message_id: webhookIdOf(record.event_id),
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

/** A subscription in the v2 shape: secret included, `meta` always carrying `source`. */
export const webhookV2Of = (record: SubscriptionRecord) => ({
  webhook_id: record.id,
  topic: record.topic,
  url: record.url,
  status: record.status,
  secret: record.secret,
  meta: { ...record.meta, source: record.meta.source ?? null },
  created_at: formatTimestampV2(record.created_at),
  updated_at: formatTimestampV2(record.updated_at)
})
