/**
 * The `x-webhook-id` of an event's deliveries: the same on every attempt, retry and redelivery,
 * and on every channel the event goes out on (subscriptions and the integration's create-product
 * call alike), so a receiver deduplicates on it wherever the event reached it.
 */
export const webhookIdOf = (eventId: number): string => `evt_${eventId}`
