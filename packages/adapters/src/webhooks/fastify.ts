import type { IncomingHttpHeaders } from "node:http"
import { RawBodyUnavailable, rawBytesOf, type VerifiedDelivery, verifyDelivery, type WebhookReceiverOptions } from "./verify-delivery.js"

/** The parts of a Fastify request the helper reads. */
export interface FastifyWebhookRequest {
  readonly headers: IncomingHttpHeaders
  readonly body?: unknown
  readonly rawBody?: unknown
}

/** The parts of a Fastify instance {@link keepRawJsonBody} uses. */
export interface FastifyParserHost {
  removeContentTypeParser(contentType: string): void
  addContentTypeParser(
    contentType: string,
    options: { readonly parseAs: "buffer" },
    parser: (request: never, body: never, done: (error: Error | null, body?: unknown) => void) => void
  ): void
}

/**
 * Replaces the scope's JSON parser with one that still parses JSON but keeps the bytes on
 * `request.rawBody`, so the host's routes read `request.body` as before and a webhook route can verify.
 */
export const keepRawJsonBody = (fastify: FastifyParserHost): void => {
  fastify.removeContentTypeParser("application/json")
  fastify.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    // Fastify hands this parser its request and, with `parseAs: "buffer"`, the body's bytes.
    const target: { rawBody?: unknown } = request
    const bytes: Buffer = body
    target.rawBody = bytes
    try {
      done(null, bytes.length === 0 ? undefined : JSON.parse(bytes.toString("utf8")))
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)))
    }
  })
}

const KEEP_RAW_BODY =
  "In Fastify, call keepRawJsonBody(fastify) from @signcraft/adapters in the webhook route's scope " +
  "(or register fastify-raw-body), so request.rawBody holds the bytes."

/**
 * Verifies a signcraft delivery in a Fastify route: on `request.rawBody` (kept by
 * {@link keepRawJsonBody} or fastify-raw-body) or a body left as bytes or text. Fastify's own JSON
 * parser keeps nothing, so then it throws {@link RawBodyUnavailable} saying how to keep the bytes.
 */
export const receiveFastifyWebhook = (request: FastifyWebhookRequest, options: WebhookReceiverOptions): VerifiedDelivery => {
  const kept = rawBytesOf(request.rawBody) ?? rawBytesOf(request.body)
  if (kept === undefined) throw new RawBodyUnavailable(KEEP_RAW_BODY)
  return verifyDelivery(kept, request.headers, options)
}
