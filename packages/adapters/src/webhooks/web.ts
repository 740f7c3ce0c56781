import { RawBodyUnavailable, type VerifiedDelivery, verifyDelivery, type WebhookReceiverOptions } from "./verify-delivery.js"

/** The parts of a Hono context the helper reads: Hono keeps what it read of a body in `bodyCache`. */
export interface HonoWebhookContext {
  readonly req: {
    readonly raw: Request
    readonly bodyCache: { readonly arrayBuffer?: Promise<ArrayBuffer>; readonly text?: Promise<string> }
    arrayBuffer(): Promise<ArrayBuffer>
  }
}

const KEEP_RAW_BODY_WEB =
  "Verify before reading the body as JSON (call the helper first, then JSON.parse the payload it returns), " +
  "or read request.text() once and pass that text on."

/**
 * Verifies a signcraft delivery in a fetch-style handler (Next.js route handlers, Workers, Deno):
 * reads the untouched body of `request`. A body already read (`request.json()`) cannot be
 * verified: it throws {@link RawBodyUnavailable}.
 */
export const receiveWebWebhook = async (request: Request, options: WebhookReceiverOptions): Promise<VerifiedDelivery> => {
  if (request.bodyUsed) throw new RawBodyUnavailable(KEEP_RAW_BODY_WEB)
  return verifyDelivery(new Uint8Array(await request.arrayBuffer()), request.headers, options)
}

/**
 * Verifies a signcraft delivery in a Hono handler on the bytes Hono read (its body cache, so
 * `c.req.json()` still works after it). When a validator or middleware already parsed the body as
 * JSON only, Hono would hand back re-serialised JSON, which is not what was signed: it throws
 * {@link RawBodyUnavailable} instead.
 */
export const receiveHonoWebhook = async (c: HonoWebhookContext, options: WebhookReceiverOptions): Promise<VerifiedDelivery> => {
  const cache = c.req.bodyCache
  const kept = cache.arrayBuffer !== undefined
    ? new Uint8Array(await cache.arrayBuffer)
    : cache.text !== undefined
    ? await cache.text
    : undefined
  if (kept !== undefined) return verifyDelivery(kept, c.req.raw.headers, options)
  if (c.req.raw.bodyUsed) {
    throw new RawBodyUnavailable("In Hono, call receiveHonoWebhook before c.req.json() or a json validator on the webhook route.")
  }
  return verifyDelivery(new Uint8Array(await c.req.arrayBuffer()), c.req.raw.headers, options)
}
