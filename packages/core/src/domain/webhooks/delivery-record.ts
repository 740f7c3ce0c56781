import type { AttemptStatus, DeliveryTrigger } from "./delivery-log.js"

/** One attempt in the delivery log. */
export interface AttemptRecord {
  readonly attemptNumber: number
  readonly startedAt: string
  readonly durationMs: number
  readonly responseStatus: number | null
  readonly responseExcerpt: string | null
  readonly error: string | null
  readonly trigger: DeliveryTrigger
  /** `pending`, `delivered` or `failed`; null for attempts recorded before outcomes were kept. */
  readonly status: AttemptStatus | null
  readonly nextAttemptAt: string | null
}

/** One delivery in the delivery log, with its attempts. */
export interface DeliveryRecord {
  readonly id: number
  readonly subscriptionId: number
  readonly eventId: number
  readonly topic: string
  /** `pending`, `delivered`, `failed` (retries exhausted) or `cancelled` (subscription deleted). */
  readonly status: string
  /** Why the delivery's latest (or next) attempt was queued. */
  readonly trigger: DeliveryTrigger
  readonly attemptCount: number
  readonly nextAttemptAt: string | null
  readonly deliveredAt: string | null
  readonly lastError: string | null
  readonly createdAt: string
  readonly attempts: ReadonlyArray<AttemptRecord>
}
