import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CreatedWebhookSubscriptionV3, WebhookSubscriptionV3 } from "../../domain/webhooks/subscription-view.js"
import { WebhookTopicSchema } from "../../domain/webhooks/topics.js"
import { AnswerCarriesSecret, Idempotency, RequiredScope } from "../annotations.js"
import { ApiKeyAuth, IdempotentWrites, RequestFailures } from "../middleware/definitions.js"
import { CollectionEnvelope, Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"
import { ResourceIdParam } from "../resource-id.js"

/** The answer to a deletion. */
export const DeletedWebhookSubscription = Schema.Struct({
  object: Schema.Literal("webhook_subscription"),
  id: Schema.Int,
  deleted: Schema.Literal(true)
}).annotate({ identifier: "DeletedWebhookSubscription" })

/** The states of a delivery. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const

/** One attempt of a delivery. */
export const WebhookAttemptV3 = Schema.Struct({
  attempt_number: Schema.Int,
  started_at: Schema.String,
  duration_ms: Schema.Int,
  response_status: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String)
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
  attempt_count: Schema.Int,
  next_attempt_at: Schema.NullOr(Schema.String),
  delivered_at: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  attempts: Schema.Array(WebhookAttemptV3)
}).annotate({ identifier: "WebhookDelivery" })

/** One entry of the event-type catalogue. */
export const WebhookEventTypeV3 = Schema.Struct({
  object: Schema.Literal("webhook_event_type"),
  topic: Schema.String,
  deprecated: Schema.Boolean,
  deprecated_on: Schema.NullOr(Schema.String),
  description: Schema.String,
  example: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "WebhookEventType" })

/** The merge patch of a subscription: RFC 7396's media type, or plain JSON as most clients send. */
const SubscriptionPatch = Schema.Struct({
  topic: Schema.optionalKey(WebhookTopicSchema),
  url: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literal("active").annotate({
    description: "`active` re-enables a subscription that was disabled after five days of failing deliveries."
  }))
}).annotate({ identifier: "WebhookSubscriptionPatch" })

/** A subscription right after a secret rotation: the new secret, shown only here. */
export const RotatedWebhookSubscriptionV3 = Schema.Struct({
  ...CreatedWebhookSubscriptionV3.fields,
  previous_secret_expires_at: Schema.String.annotate({
    description:
      "Until then every delivery carries x-webhook-signature made with the previous secret and x-webhook-signature-next made with the new one."
  })
}).annotate({ identifier: "RotatedWebhookSubscription" })

const page = { limit: Schema.optionalKey(Schema.String), cursor: Schema.optionalKey(Schema.String) }
const subscriptionParams = { webhook_id: ResourceIdParam("webhook subscription") }

/** v3 webhook subscriptions, their delivery log and the event-type catalogue. */
export class V3WebhooksApi extends HttpApiGroup.make("v3Webhooks")
  .add(
    HttpApiEndpoint.get("listSubscriptions", "/webhook-subscriptions", {
      query: page,
      success: CollectionEnvelope(WebhookSubscriptionV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotate(OpenApi.Summary, "The Store's webhook subscriptions, in creation order, paged with limit and cursor"),
    HttpApiEndpoint.post("createSubscription", "/webhook-subscriptions", {
      payload: Schema.Struct({ topic: WebhookTopicSchema, url: Schema.String }),
      success: Envelope(CreatedWebhookSubscriptionV3).pipe(HttpApiSchema.status(201))
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotate(AnswerCarriesSecret, true)
      .annotateMerge(OpenApi.annotations({
        summary: "Subscribe a URL to a topic",
        description:
          "Returns the signing secret once. In production the URL must be HTTPS and must not resolve to a loopback, private, link-local or metadata address. Takes an optional Idempotency-Key."
      }))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.get("getSubscription", "/webhook-subscriptions/:webhook_id", {
      params: subscriptionParams,
      success: Envelope(WebhookSubscriptionV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotate(OpenApi.Summary, "One webhook subscription (without its secret)"),
    HttpApiEndpoint.patch("patchSubscription", "/webhook-subscriptions/:webhook_id", {
      params: subscriptionParams,
      payload: [SubscriptionPatch, SubscriptionPatch.pipe(HttpApiSchema.asJson({ contentType: "application/merge-patch+json" }))],
      success: Envelope(WebhookSubscriptionV3)
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotateMerge(OpenApi.annotations({
        summary: "Change a subscription's topic or URL, or re-enable it (merge patch)",
        description:
          "Omitted members are unchanged. `topic` and `url` can change, and `status: active` re-enables a disabled subscription; the secret is kept (rotate it with POST …/rotate-secret)."
      })),
    HttpApiEndpoint.post("rotateSecret", "/webhook-subscriptions/:webhook_id/rotate-secret", {
      params: subscriptionParams,
      success: Envelope(RotatedWebhookSubscriptionV3)
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotate(AnswerCarriesSecret, true)
      .annotateMerge(OpenApi.annotations({
        summary: "Rotate the signing secret, with a 24-hour overlap",
        description:
          "Returns the new secret once. For 24 hours deliveries keep x-webhook-signature made with the previous secret (receivers holding it keep working) and add x-webhook-signature-next made with the new one; verifyWebhook accepts either secret. Takes an optional Idempotency-Key."
      }))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.delete("deleteSubscription", "/webhook-subscriptions/:webhook_id", {
      params: subscriptionParams,
      success: Envelope(DeletedWebhookSubscription)
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(OpenApi.Summary, "Delete a subscription; its pending deliveries are cancelled"),
    HttpApiEndpoint.get("listDeliveries", "/webhook-subscriptions/:webhook_id/deliveries", {
      params: subscriptionParams,
      query: { ...page, status: Schema.optionalKey(Schema.Literals(DELIVERY_STATUSES)) },
      success: CollectionEnvelope(WebhookDeliveryV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotate(OpenApi.Summary, "The subscription's delivery log, newest first, with every attempt; `status` filters it"),
    HttpApiEndpoint.post("redeliver", "/webhook-subscriptions/:webhook_id/deliveries/:delivery_id/redeliver", {
      params: { ...subscriptionParams, delivery_id: ResourceIdParam("webhook delivery") },
      success: Envelope(WebhookDeliveryV3).pipe(HttpApiSchema.status(202))
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotateMerge(OpenApi.annotations({
        summary: "Deliver an event again",
        description:
          "Queues one more attempt now, with the same x-webhook-id so receivers can deduplicate. A delivery already in flight is left as it is."
      }))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.get("listEventTypes", "/webhook-event-types", {
      success: CollectionEnvelope(WebhookEventTypeV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotateMerge(OpenApi.annotations({
        summary: "Every webhook topic, with a static example body",
        description:
          "Deprecated topics have `deprecated: true` and a description opening with `Deprecated.`; they keep delivering unchanged. New topics may appear: ignore the ones you do not know."
      }))
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Webhooks")
{}
