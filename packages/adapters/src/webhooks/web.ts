import { RawBodyUnavailable, type VerifiedDelivery, verifyDelivery, type WebhookReceiverOptions } from "./verify-delivery.js"

/** The parts of a Hono context the helper reads: Hono keeps what it read of a body in `bodyCache`. */
export interface HonoWebhookContext {
  readonly req: {
    readonly raw: Request
    /** Hono types the entries as values; at run time they hold the promises of them. */
    readonly bodyCache: { readonly arrayBuffer?: unknown; readonly text?: unknown }
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
 * Verifies a signcraft delivery in a Hono handler on the bytes Hono kept: `c.req.json()` and
 * `c.req.text()` cache the body's text, so a JSON validator that ran first does no harm, and
 * `c.req.json()` still works afterwards. When something read `c.req.raw` itself, nothing was kept
 * (and a body cached only as parsed JSON would come back re-serialised, which is not what was
 * signed): it throws {@link RawBodyUnavailable}.
 */
export const receiveHonoWebhook = async (c: HonoWebhookContext, options: WebhookReceiverOptions): Promise<VerifiedDelivery> => {
  const cached = await (c.req.bodyCache.arrayBuffer ?? c.req.bodyCache.text)
  const kept = cached instanceof ArrayBuffer ? new Uint8Array(cached) : typeof cached === "string" ? cached : undefined
  if (kept !== undefined) return verifyDelivery(kept, c.req.raw.headers, options)
  if (c.req.raw.bodyUsed) {
    throw new RawBodyUnavailable(
      "In Hono, read the body on the webhook route only through c.req (c.req.json(), c.req.text(), validators), never c.req.raw, so Hono keeps its bytes."
    )
  }
  return verifyDelivery(new Uint8Array(await c.req.arrayBuffer()), c.req.raw.headers, options)
}
