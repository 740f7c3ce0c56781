import type { IncomingMessage } from "node:http"
import { RawBodyUnavailable, rawBytesOf, type VerifiedDelivery, verifyDelivery, type WebhookReceiverOptions } from "./verify-delivery.js"

/** A Node or Express request, with what body parsers may have left on it. */
export type NodeWebhookRequest = IncomingMessage & { readonly body?: unknown; readonly rawBody?: unknown }

const KEEP_RAW_BODY =
  "In Express, mount express.raw({ type: \"application/json\" }) on the webhook route instead of express.json(), " +
  "or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })."

const readStream = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks)
}

/**
 * Verifies a signcraft delivery in `node:http` or Express: on the bytes a parser kept
 * (`req.rawBody`, or `req.body` from `express.raw`), else on the stream when nothing read it yet.
 * Rejects with {@link RawBodyUnavailable} (saying how to keep the bytes) when a JSON parser
 * consumed them, and with `WebhookVerificationFailed` when the signature does not match.
 */
export const receiveNodeWebhook = async (req: NodeWebhookRequest, options: WebhookReceiverOptions): Promise<VerifiedDelivery> => {
  const kept = rawBytesOf(req.rawBody) ?? rawBytesOf(req.body)
  if (kept !== undefined) return verifyDelivery(kept, req.headers, options)
  if (req.body !== undefined || req.readableEnded) throw new RawBodyUnavailable(KEEP_RAW_BODY)
  return verifyDelivery(await readStream(req), req.headers, options)
}
