import type { EventDeliveryStatus } from "./delivery-log.js"

/** An event of the outbox, as the events API reads it. */
export interface EventRecord {
  readonly id: number
  readonly topic: string
  /** The JSON body exactly as delivered. */
  readonly body: string
  /** UTC text with microseconds. */
  readonly createdAt: string
  /** Null when the event went to no subscription. */
  readonly deliveryStatus: EventDeliveryStatus | null
}
