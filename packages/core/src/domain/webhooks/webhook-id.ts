/**
 * The `x-webhook-id` of an event's deliveries: the same on every attempt, retry and redelivery,
 * and on every channel the event goes out on (subscriptions and the integration's create-product
 * call alike), so a receiver deduplicates on it wherever the event reached it.
 */
export const webhookIdOf = (eventId: number): string => `evt_${eventId}`

/** The shape of a message id: `evt_` and the event's decimal id. */
export const WEBHOOK_ID_PATTERN = /^evt_[1-9]\d{0,15}$/

/** The event id a message id names (`evt_42` → 42), or undefined for any other text. */
export const eventIdOfWebhookId = (webhookId: string): number | undefined =>
  WEBHOOK_ID_PATTERN.test(webhookId) ? Number(webhookId.slice(4)) : undefined
