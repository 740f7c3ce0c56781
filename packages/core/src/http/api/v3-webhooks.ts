import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { WebhookDeliveryV3 } from "../../presenters/webhook-schemas.js"
import { SignatureSchemeSchema } from "../../domain/webhooks/signature-schemes.js"
import { CreatedWebhookSubscriptionV3, WebhookSubscriptionV3 } from "../../domain/webhooks/subscription-view.js"
import { WebhookTopicSchema } from "../../domain/webhooks/topics.js"
import { AnswerCarriesSecret, Idempotency, RequiredScope } from "../annotations.js"
import { ApiKeyAuth, IdempotentWrites, RequestFailures } from "../middleware/definitions.js"
import { CollectionEnvelope, Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"
import { EventIdParam, ResourceIdParam } from "../resource-id.js"
import { IsoTimestamp } from "./iso-timestamp.js"

/** The answer to a deletion. */
export const DeletedWebhookSubscription = Schema.Struct({
  object: Schema.Literal("webhook_subscription"),
  id: Schema.Int,
  deleted: Schema.Literal(true)
}).annotate({ identifier: "DeletedWebhookSubscription" })

/** The states of a delivery. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const

/** One entry of the event-type catalogue. */
export const WebhookEventTypeV3 = Schema.Struct({
  object: Schema.Literal("webhook_event_type"),
  topic: Schema.String,
  deprecated: Schema.Boolean,
  deprecated_on: Schema.NullOr(Schema.String),
  description: Schema.String,
  example: Schema.Record(Schema.String, Schema.Unknown),
  signature_schemes: Schema.Array(Schema.Struct({
    scheme: SignatureSchemeSchema,
    headers: Schema.Array(Schema.String),
    signed_content: Schema.String,
    signature: Schema.String,
    secret: Schema.String
  })).annotate({ description: "How a delivery of this topic is signed under each scheme a subscription can choose." })
}).annotate({ identifier: "WebhookEventType" })

/** The answer to a recovery: how many events were queued again. */
export const WebhookRecoveryV3 = Schema.Struct({
  object: Schema.Literal("webhook_recovery"),
  recovered: Schema.Int.annotate({ description: "How many events were queued, to be sent in the order they were created." })
}).annotate({ identifier: "WebhookRecovery" })

/** The window of a recovery. */
const RecoverRequest = Schema.Struct({
  since: IsoTimestamp.annotate({ description: "Events created at or after this instant." }),
  until: Schema.optionalKey(IsoTimestamp.annotate({ description: "Events created before this instant; now when omitted." }))
}).annotate({ identifier: "WebhookRecoveryRequest" })

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
      payload: Schema.Struct({ topic: WebhookTopicSchema, url: Schema.String, signature_scheme: Schema.optionalKey(SignatureSchemeSchema) }),
      success: Envelope(CreatedWebhookSubscriptionV3).pipe(HttpApiSchema.status(201))
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotate(AnswerCarriesSecret, true)
      .annotateMerge(OpenApi.annotations({
        summary: "Subscribe a URL to a topic",
        description:
          "Returns the signing secret once. `signature_scheme` (fixed at creation) picks how deliveries are signed: `signcraft` (default, the x-webhook-* headers) or `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature `v1,<base64>` over `id.timestamp.body`, secret `whsec_<base64>`). In production the URL must be HTTPS and must not resolve to a loopback, private, link-local or metadata address. Takes an optional Idempotency-Key."
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
    HttpApiEndpoint.post("resendEvent", "/webhook-subscriptions/:webhook_id/events/:event_id/resend", {
      params: { ...subscriptionParams, event_id: EventIdParam },
      success: Envelope(WebhookDeliveryV3).pipe(HttpApiSchema.status(202))
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotateMerge(OpenApi.annotations({
        summary: "Send one event to one subscription again",
        description:
          "Queues one attempt of the event now (`trigger: manual`) with the same message id (x-webhook-id, or webhook-id under the standard scheme), even when the subscription is disabled. An attempt already in flight is left as it is. Answers the delivery."
      }))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.post("recover", "/webhook-subscriptions/:webhook_id/recover", {
      params: subscriptionParams,
      payload: RecoverRequest,
      success: Envelope(WebhookRecoveryV3).pipe(HttpApiSchema.status(202))
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotateMerge(OpenApi.annotations({
        summary: "Send again every event the subscription missed in a window",
        description:
          "Every event of the subscription's topic created in [since, until) (and since the subscription was created) that has no successful delivery to it yet (failed, still retrying, cancelled when it was disabled, or never sent while it was disabled) is queued again (`trigger: recovery`) with its own message id, and sent one at a time in the order the events were created. A failed attempt then retries on the usual schedule. Works on a disabled subscription too; re-enable it with PATCH `status: active` for new events."
      }))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.post("sendTestEvent", "/webhook-subscriptions/:webhook_id/test", {
      params: subscriptionParams,
      success: Envelope(WebhookDeliveryV3).pipe(HttpApiSchema.status(202))
    })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(Idempotency, "optional")
      .annotateMerge(OpenApi.annotations({
        summary: "Send a webhook:test event to this subscription only",
        description:
          "Records a `webhook:test` event (body `{webhook_test: {subscription_id, topic, url}}`) and queues its delivery to this subscription alone, signed like any other; answers that delivery, whose attempts show what the receiver answered. Works on a disabled subscription, to check a receiver is back before re-enabling it."
      }))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.get("listEventTypes", "/webhook-event-types", {
      success: CollectionEnvelope(WebhookEventTypeV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotateMerge(OpenApi.annotations({
        summary: "Every webhook topic, with a static example body",
        description:
          "Deprecated topics have `deprecated: true` and a description opening with `Deprecated.`; they keep delivering unchanged. New topics may appear: ignore the ones you do not know. `webhook:test` is sent only on request. Each entry describes both signature schemes: `signcraft` (x-webhook-timestamp, x-webhook-signature: hex HMAC-SHA256 of `timestamp.body`) and `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature `v1,<base64>` over `id.timestamp.body`)."
      }))
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Webhooks")
{}
