import { createHmac, randomBytes } from "node:crypto"
import { type HeaderSource, readHeader } from "./headers.js"
import type { Bytes } from "./signature.js"
import { anySignatureMatches, assertSigningTimestamp, checkSigningTime, type WebhookVerification } from "./signing-time.js"

/**
 * The Standard Webhooks scheme (https://github.com/standard-webhooks/standard-webhooks,
 * spec/standard-webhooks.md): `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the bytes of a `whsec_<base64>` secret.
 */

/** Header carrying the message id: the event's id, stable across attempts and redeliveries. */
export const STANDARD_ID_HEADER = "webhook-id"
/** Header carrying the signing time, Unix seconds. */
export const STANDARD_TIMESTAMP_HEADER = "webhook-timestamp"
/** Header carrying space-separated `v1,<base64>` signatures. */
export const STANDARD_SIGNATURE_HEADER = "webhook-signature"
/** The prefix of a Standard Webhooks secret. */
export const STANDARD_SECRET_PREFIX = "whsec_"

// The specification allows 24 to 64 bytes; 32 is a whole SHA-256 block of key.
const STANDARD_SECRET_BYTES = 32

/** A fresh Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const newStandardSecret = (): string => STANDARD_SECRET_PREFIX + randomBytes(STANDARD_SECRET_BYTES).toString("base64")

// The key is the secret's base64 part decoded; the prefix is only a marker.
const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret, "base64")

/** `v1,<base64>`: the signature of `rawBody` as message `id` at `timestamp` (Unix seconds). */
export const signStandard = (secret: string, id: string, timestamp: number, rawBody: Bytes): string => {
  assertSigningTimestamp(timestamp)
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.`, "utf8").update(rawBody).digest("base64")
  return `v1,${mac}`
}

/**
 * The headers of a Standard Webhooks delivery of `rawBody` as message `id` signed at `now`; with a
 * `previousSecret` (a rotation's overlap) the header carries both signatures, space-separated, as
 * the specification provides for rotations.
 */
export const standardSignatureHeaders = (
  secret: string,
  id: string,
  rawBody: Bytes,
  now: Date,
  previousSecret?: string | null
): { readonly "webhook-id": string; readonly "webhook-timestamp": string; readonly "webhook-signature": string } => {
  const timestamp = Math.floor(now.getTime() / 1000)
  const secrets = previousSecret === undefined || previousSecret === null ? [secret] : [secret, previousSecret]
  return {
    [STANDARD_ID_HEADER]: id,
    [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_SIGNATURE_HEADER]: secrets.map((s) => signStandard(s, id, timestamp, rawBody)).join(" ")
  }
}

/** Outcome of verifying a Standard Webhooks delivery: the same outcomes as the signcraft scheme's. */
export type StandardVerification = WebhookVerification

/** Inputs of {@link verifyStandardWebhook}; `rawBody` must be the exact bytes received. */
export interface VerifyStandardWebhookInput {
  readonly rawBody: Bytes
  readonly headers: HeaderSource
  /** The `whsec_…` secret, or during a rotation both: either verifies. */
  readonly secret: string | ReadonlyArray<string>
  readonly toleranceSeconds?: number
  /** The receiver's clock; defaults to the current time. */
  readonly now?: Date
}

/**
 * Verifies a Standard Webhooks delivery: the three headers present, the timestamp within the
 * tolerance (default 300 s) of `now`, and one `v1` signature equal (constant time) to the one
 * made over the id, the timestamp exactly as sent and the raw body.
 */
export const verifyStandardWebhook = (input: VerifyStandardWebhookInput): StandardVerification => {
  const id = readHeader(input.headers, STANDARD_ID_HEADER)
  const timestamp = readHeader(input.headers, STANDARD_TIMESTAMP_HEADER)
  const signatures = readHeader(input.headers, STANDARD_SIGNATURE_HEADER)
  if (id === undefined || timestamp === undefined || signatures === undefined) return { ok: false, reason: "missing_header" }
  const late = checkSigningTime(timestamp, input.toleranceSeconds, input.now)
  if (late !== undefined) return late
  const secrets = typeof input.secret === "string" ? [input.secret] : input.secret
  const presented = signatures.split(/,?\s+/).map((s) => s.trim()).filter((s) => s.startsWith("v1,"))
  return anySignatureMatches(secrets, presented, (secret) => signStandard(secret, id, Number(timestamp), input.rawBody))
}
