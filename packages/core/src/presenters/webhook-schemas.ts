import { Schema } from "effect"
import { ATTEMPT_STATUSES, DELIVERY_TRIGGERS, EVENT_DELIVERY_STATUSES } from "../domain/webhooks/delivery-log.js"

// The wire shapes of events and deliveries, shared by the HTTP API (its codecs and OpenAPI) and
// the agent's read tools (their output schemas).

/** An event: what the Store's webhooks deliver, readable for `RETENTION_DAYS`. */
export const EventV3 = Schema.Struct({
  object: Schema.Literal("event"),
  id: Schema.String.annotate({ description: "`evt_…`: the x-webhook-id (webhook-id under the standard scheme) of every delivery of this event." }),
  type: Schema.String.annotate({ description: "The topic: product:created, order:created, form:submitted or webhook:test; may grow." }),
  created_at: Schema.String,
  data: Schema.Unknown.annotate({ description: "The body every delivery of the event carries." }),
  delivery_status: Schema.NullOr(Schema.Literals(EVENT_DELIVERY_STATUSES)).annotate({
    description:
      "pending while a delivery is still to be tried, else failed when one gave up (or was cancelled by its subscription's disabling), else delivered; null when the event went to no subscription."
  })
}).annotate({ identifier: "Event" })

/** One attempt of a delivery. */
export const WebhookAttemptV3 = Schema.Struct({
  attempt_number: Schema.Int,
  started_at: Schema.String,
  duration_ms: Schema.Int,
  response_status: Schema.NullOr(Schema.Int),
  response_body: Schema.NullOr(Schema.String).annotate({
    description: "The first kilobyte (1024 bytes, cut between characters) of the receiver's answer; null when none came."
  }),
  error: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.Literals(ATTEMPT_STATUSES)).annotate({
    description:
      "delivered (2xx), pending (failed; another attempt is due at next_attempt_at) or failed (failed; none follows). Null for attempts made before this was recorded."
  }),
  next_attempt_at: Schema.NullOr(Schema.String).annotate({
    description: "When the next attempt was scheduled after this one (honouring Retry-After); null when none was."
  }),
  trigger: Schema.Literals(DELIVERY_TRIGGERS).annotate({
    description: "scheduled (the first attempt and retries), manual (a resend, a redelivery or a test) or recovery (a recover call)."
  })
}).annotate({ identifier: "WebhookAttempt" })

/** One delivery of an event to a subscription, with every attempt made. */
export const WebhookDeliveryV3 = Schema.Struct({
  object: Schema.Literal("webhook_delivery"),
  id: Schema.Int,
  subscription_id: Schema.Int.annotate({ description: "The subscription this delivery is for (`{webhook_id}` in the path)." }),
  message_id: Schema.String.annotate({
    description: "The x-webhook-id header of every attempt of this delivery: receivers deduplicate on it."
  }),
  webhook_id: Schema.String.annotate({
    description: "Deprecated: the same as message_id (it names the message, not the subscription); kept for existing readers."
  }),
  event_id: Schema.Int,
  topic: Schema.String,
  status: Schema.String.annotate({ description: "pending, delivered, failed (retries exhausted) or cancelled; may grow." }),
  trigger: Schema.Literals(DELIVERY_TRIGGERS).annotate({ description: "Why the latest (or next) attempt was queued." }),
  attempt_count: Schema.Int,
  next_attempt_at: Schema.NullOr(Schema.String),
  delivered_at: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  attempts: Schema.Array(WebhookAttemptV3)
}).annotate({ identifier: "WebhookDelivery" })

