import { Schema } from "effect"
import { signatureHeaders } from "./signature.js"
import { standardSignatureHeaders } from "./standard-signature.js"

/** The ways a subscription's deliveries can be signed; `signcraft` is the default. */
export const SIGNATURE_SCHEMES = ["signcraft", "standard"] as const

/** How a subscription's deliveries are signed. */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number]

/** A signature scheme, as a subscription is created with it. */
export const SignatureSchemeSchema = Schema.Literals(SIGNATURE_SCHEMES).annotate({
  identifier: "SignatureScheme",
  description:
    "`signcraft` (default): x-webhook-timestamp and x-webhook-signature, the lowercase hex HMAC-SHA256 of `timestamp.body`. `standard`: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature `v1,<base64>` over `id.timestamp.body`, secret `whsec_<base64>`), verified by the standardwebhooks and svix libraries."
})

/** What a receiver checks under one scheme: shown by the event-type catalogue and the docs. */
export interface SignatureSchemeDescription {
  readonly scheme: SignatureScheme
  readonly headers: ReadonlyArray<string>
  readonly signed_content: string
  readonly signature: string
  readonly secret: string
}

/** Both schemes, described for receivers. */
export const SIGNATURE_SCHEME_DESCRIPTIONS: ReadonlyArray<SignatureSchemeDescription> = [
  {
    scheme: "signcraft",
    headers: ["x-webhook-id", "x-webhook-topic", "x-webhook-timestamp", "x-webhook-signature", "x-webhook-signature-next"],
    signed_content: "{x-webhook-timestamp}.{raw body}",
    signature: "lowercase hex HMAC-SHA256 keyed with the secret's text; x-webhook-signature-next carries the new secret's during the 24 hours after a rotation",
    secret: "whsec_ followed by 32 base62 characters, used as it is"
  },
  {
    scheme: "standard",
    headers: ["webhook-id", "webhook-timestamp", "webhook-signature", "x-webhook-topic"],
    signed_content: "{webhook-id}.{webhook-timestamp}.{raw body}",
    signature: "v1,<base64 HMAC-SHA256>, space-separated when two secrets sign during a rotation (Standard Webhooks 1.0)",
    secret: "whsec_ followed by the base64 of 32 random bytes; the key is those bytes"
  }
]

/** What one delivery carries besides its body: the message id, its topic and the signature. */
export interface DeliverySigning {
  readonly scheme: SignatureScheme
  readonly secret: string
  readonly previousSecret: string | null
  /** The message id (`evt_…`), the same on every attempt and redelivery of the event. */
  readonly messageId: string
  readonly topic: string
  readonly body: string
  readonly now: Date
}

/** The headers of one delivery attempt under the subscription's scheme. */
export const deliveryHeaders = (signing: DeliverySigning): Readonly<Record<string, string>> =>
  signing.scheme === "standard"
    ? {
      "x-webhook-topic": signing.topic,
      ...standardSignatureHeaders(signing.secret, signing.messageId, signing.body, signing.now, signing.previousSecret)
    }
    : {
      "x-webhook-id": signing.messageId,
      "x-webhook-topic": signing.topic,
      ...signatureHeaders(signing.secret, signing.body, signing.now, signing.previousSecret)
    }

/** Whether a stored scheme name is one this release signs with. */
export const isSignatureScheme = (value: string): value is SignatureScheme =>
  (SIGNATURE_SCHEMES as ReadonlyArray<string>).includes(value)
