import { Schema } from "effect"
import { SignatureSchemeSchema } from "./signature-schemes.js"

// The v3 views of a webhook subscription, shared by the HTTP API and the agent tools' output schemas.

/** A v3 webhook subscription; the signing secret is never part of a read. */
export const WebhookSubscriptionV3 = Schema.Struct({
  object: Schema.Literal("webhook_subscription"),
  id: Schema.Int,
  topic: Schema.String,
  url: Schema.String,
  status: Schema.String.annotate({ description: "active or disabled; may grow. PATCH `status: active` re-enables a disabled subscription." }),
  disabled_reason: Schema.NullOr(Schema.String).annotate({
    description: "Why a disabled subscription stopped: `gone` (its receiver answered 410) or `failing` (five days of failed deliveries); null while active. May grow."
  }),
  signature_scheme: SignatureSchemeSchema,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "WebhookSubscription" })

/** The subscription as created: the only time its signing secret is shown. */
export const CreatedWebhookSubscriptionV3 = Schema.Struct({
  ...WebhookSubscriptionV3.fields,
  secret: Schema.String.annotate({
    description:
      "Signing secret: for `signcraft`, the HMAC-SHA256 key of x-webhook-signature as it is; for `standard`, `whsec_<base64>` as Standard Webhooks libraries take it. Shown only in this response: store it now."
  })
}).annotate({ identifier: "CreatedWebhookSubscription" })
