import { Schema } from "effect"

// The v3 views of a webhook subscription, shared by the HTTP API and the agent tools' output schemas.

/** A v3 webhook subscription; the signing secret is never part of a read. */
export const WebhookSubscriptionV3 = Schema.Struct({
  object: Schema.Literal("webhook_subscription"),
  id: Schema.Int,
  topic: Schema.String,
  url: Schema.String,
  status: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "WebhookSubscription" })

/** The subscription as created: the only time its signing secret is shown. */
export const CreatedWebhookSubscriptionV3 = Schema.Struct({
  ...WebhookSubscriptionV3.fields,
  secret: Schema.String.annotate({
    description: "Signing secret (HMAC-SHA256 key of x-webhook-signature). Shown only in this response: store it now."
  })
}).annotate({ identifier: "CreatedWebhookSubscription" })
