import { createHmac } from "node:crypto"
import type { HeaderSource } from "./headers.js"
import { readHeader } from "./headers.js"
import { anySignatureMatches, assertSigningTimestamp, checkSigningTime, type WebhookVerification } from "./signing-time.js"

export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, type WebhookVerification } from "./signing-time.js"

/** Header carrying the signing time, Unix seconds as a decimal string. */
export const WEBHOOK_TIMESTAMP_HEADER = "x-webhook-timestamp"
/** Header carrying the lowercase hex HMAC-SHA256 of `timestamp + "." + raw_body`. */
export const WEBHOOK_SIGNATURE_HEADER = "x-webhook-signature"
/**
 * During the 24 hours after a secret rotation: the signature made with the new secret, while
 * `x-webhook-signature` keeps the one made with the previous secret, so a receiver that checks
 * only `x-webhook-signature` with the secret it holds keeps working until it switches.
 */
export const WEBHOOK_NEXT_SIGNATURE_HEADER = "x-webhook-signature-next"

/** A signing secret or a raw request body, as text (UTF-8) or bytes. */
export type Bytes = string | Uint8Array

const hmacHex = (secret: Bytes, timestamp: string, rawBody: Bytes): string =>
  createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(rawBody).digest("hex")

/** Lowercase hex HMAC-SHA256, keyed with `secret`, of the bytes `timestamp + "." + rawBody`. */
export const signPayload = (secret: Bytes, timestamp: number, rawBody: Bytes): string => {
  assertSigningTimestamp(timestamp)
  return hmacHex(secret, String(timestamp), rawBody)
}

/**
 * The signature headers of a delivery of `rawBody` signed at `now`. With a `previousSecret` (a
 * rotation's overlap), `x-webhook-signature` is made with it and `x-webhook-signature-next` with
 * `secret`.
 */
export const signatureHeaders = (
  secret: Bytes,
  rawBody: Bytes,
  now: Date,
  previousSecret?: Bytes | null
): {
  readonly "x-webhook-timestamp": string
  readonly "x-webhook-signature": string
  readonly "x-webhook-signature-next"?: string
} => {
  const timestamp = Math.floor(now.getTime() / 1000)
  return previousSecret === undefined || previousSecret === null
    ? {
      [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
      [WEBHOOK_SIGNATURE_HEADER]: signPayload(secret, timestamp, rawBody)
    }
    : {
      [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
      [WEBHOOK_SIGNATURE_HEADER]: signPayload(previousSecret, timestamp, rawBody),
      [WEBHOOK_NEXT_SIGNATURE_HEADER]: signPayload(secret, timestamp, rawBody)
    }
}

/** Inputs of `verifyWebhook`; `rawBody` must be the exact bytes received, before any JSON decoding. */
export interface VerifyWebhookInput {
  readonly rawBody: Bytes
  readonly headers: HeaderSource
  /** The secret, or during a rotation both (new and old, in any order): either verifies. */
  readonly secret: Bytes | ReadonlyArray<Bytes>
  readonly toleranceSeconds?: number
  /** The receiver's clock; defaults to the current time. */
  readonly now?: Date
}

/**
 * Verifies a signed delivery: both headers present, timestamp a decimal Unix
 * second within `toleranceSeconds` (default 300) of `now` in either direction,
 * and the signature equal (constant time, hex case-insensitive) to the HMAC
 * of the timestamp header exactly as sent, ".", and the raw body.
 */
export const verifyWebhook = (input: VerifyWebhookInput): WebhookVerification => {
  const timestamp = readHeader(input.headers, WEBHOOK_TIMESTAMP_HEADER)
  const signature = readHeader(input.headers, WEBHOOK_SIGNATURE_HEADER)
  if (timestamp === undefined || signature === undefined) return { ok: false, reason: "missing_header" }
  const late = checkSigningTime(timestamp, input.toleranceSeconds, input.now)
  if (late !== undefined) return late
  const secrets: ReadonlyArray<Bytes> = typeof input.secret === "string" || input.secret instanceof Uint8Array ? [input.secret] : input.secret
  const presented = [signature, readHeader(input.headers, WEBHOOK_NEXT_SIGNATURE_HEADER)]
    .filter((value): value is string => value !== undefined)
    .map((value) => value.toLowerCase())
  return anySignatureMatches(secrets, presented, (secret) => hmacHex(secret, timestamp, input.rawBody))
}
