import { webhooks } from "@signcraft/core/domain"

/** What a receiving helper needs: the subscription's secret (or, during a rotation, both). */
export interface WebhookReceiverOptions {
  readonly secret: string | ReadonlyArray<string>
  /** Largest accepted distance between the signing time and this server's clock; 300 s by default. */
  readonly toleranceSeconds?: number
}

/** A delivery that verified: its message id, topic and parsed body. */
export interface VerifiedDelivery {
  /** `evt_…`: deduplicate on it. */
  readonly id: string
  readonly topic: string | undefined
  readonly payload: unknown
}

/** Why a delivery was refused; `reason` is safe to log and never holds a secret. */
export class WebhookVerificationFailed extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(`signcraft webhook refused: ${reason}`)
    this.name = "WebhookVerificationFailed"
    this.reason = reason
  }
}

/**
 * The host's JSON body parser ran first and kept no raw bytes, so no signature can be checked:
 * re-serialised JSON is not what was signed. The message says how to keep the raw body.
 */
export class RawBodyUnavailable extends Error {
  constructor(howToKeepIt: string) {
    super(`signcraft webhook: the raw request body is gone (a JSON body parser already read it), so its signature cannot be verified. ${howToKeepIt}`)
    this.name = "RawBodyUnavailable"
  }
}

/** Bytes or text a framework kept of a body, if that is what `value` is. */
export const rawBytesOf = (value: unknown): Uint8Array | string | undefined =>
  typeof value === "string" || value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : undefined

/**
 * Verifies a delivery on its raw body with the domain's own verifiers, under whichever scheme it
 * was signed with (Standard Webhooks when `webhook-signature` is present, else `x-webhook-*`),
 * and parses its JSON only once verified.
 */
export const verifyDelivery = (
  rawBody: Uint8Array | string,
  headers: webhooks.HeaderSource,
  options: WebhookReceiverOptions
): VerifiedDelivery => {
  const tolerance = options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }
  const standard = webhooks.readHeader(headers, webhooks.STANDARD_SIGNATURE_HEADER) !== undefined
  const verdict = standard
    ? webhooks.verifyStandardWebhook({ rawBody, headers, secret: options.secret, ...tolerance })
    : webhooks.verifyWebhook({ rawBody, headers, secret: options.secret, ...tolerance })
  if (!verdict.ok) throw new WebhookVerificationFailed(verdict.reason)
  const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8")
  return {
    id: webhooks.readHeader(headers, standard ? webhooks.STANDARD_ID_HEADER : "x-webhook-id") ?? "",
    topic: webhooks.readHeader(headers, "x-webhook-topic"),
    payload: text === "" ? undefined : JSON.parse(text)
  }
}
