/** Why an attempt was made: the retry schedule, a resend, or a recovery. */
export const DELIVERY_TRIGGERS = ["scheduled", "manual", "recovery"] as const

/** One trigger. */
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number]

/**
 * What became of one attempt: `delivered` (2xx), `pending` (failed, another attempt scheduled at
 * its `next_attempt_at`) or `failed` (failed, no attempt follows), as Svix reads attempts.
 */
export const ATTEMPT_STATUSES = ["pending", "delivered", "failed"] as const

/** One of {@link ATTEMPT_STATUSES}. */
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number]

/** How an event's deliveries stand, all subscriptions together (the events API's `delivery_status`). */
export const EVENT_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const

/** One of {@link EVENT_DELIVERY_STATUSES}. */
export type EventDeliveryStatus = (typeof EVENT_DELIVERY_STATUSES)[number]

/** Most bytes of a receiver's answer kept with its attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024

/** The first {@link RESPONSE_EXCERPT_BYTES} bytes of an answer's body, never splitting a UTF-8 character. */
export const responseExcerpt = (body: string): string => {
  const bytes = Buffer.from(body, "utf8")
  if (bytes.length <= RESPONSE_EXCERPT_BYTES) return body
  let end = RESPONSE_EXCERPT_BYTES
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString("utf8")
}
