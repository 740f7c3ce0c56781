/**
 * A webhook receiver for signcraft deliveries, using the verification helper of
 * `@signcraft/core`. Run it with
 *
 *   WEBHOOK_SECRET=whsec_... PORT=4000 node --import tsx examples/webhook-receiver.ts
 *
 * and subscribe `http://127.0.0.1:4000/hook` (development and test servers accept loopback HTTP).
 */
import { webhooks } from "@signcraft/core/domain"
import { createServer, type IncomingMessage, type Server } from "node:http"
import { fileURLToPath } from "node:url"

/** One verified delivery. */
export interface VerifiedEvent {
  /** `x-webhook-id`: the same on every retry of one delivery; deduplicate on it. */
  readonly id: string
  readonly topic: string
  readonly body: unknown
}

/** Options of {@link createWebhookReceiver}. */
export interface ReceiverOptions {
  /** The subscription's signing secret (shown once, when the subscription was created). */
  readonly secret: string
  /** Called once per delivery id; retries of an already handled delivery are acknowledged only. */
  readonly onEvent: (event: VerifiedEvent) => void | Promise<void>
  /** Largest accepted distance from the receiver's clock, in seconds; 300 by default. */
  readonly toleranceSeconds?: number
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

/**
 * An HTTP server that verifies every delivery against the raw body before decoding it, answers
 * 401 to anything unsigned, stale or forged, handles each delivery id once, and answers as the
 * service expects: `{external_id}` for `product:created`, `{ok: true}` otherwise.
 */
export const createWebhookReceiver = (options: ReceiverOptions): Server => {
  const handled = new Set<string>()
  return createServer(async (req, res) => {
    const rawBody = await readBody(req)
    const verdict = webhooks.verifyWebhook({
      rawBody,
      headers: req.headers,
      secret: options.secret,
      ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds })
    })
    if (!verdict.ok) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: verdict.reason }))
      return
    }
    const id = webhooks.readHeader(req.headers, "x-webhook-id") ?? ""
    const topic = webhooks.readHeader(req.headers, "x-webhook-topic") ?? ""
    const body: unknown = JSON.parse(rawBody.toString("utf8"))
    if (!handled.has(id)) {
      try {
        await options.onEvent({ id, topic, body })
      } catch (error) {
        // Any non-2xx makes the service retry later, with the same x-webhook-id.
        console.error(error)
        res.writeHead(500).end()
        return
      }
      handled.add(id)
    }
    const answer = topic === "product:created" ? { external_id: `ext_${id}` } : { ok: true }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer))
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.WEBHOOK_SECRET
  if (secret === undefined || secret === "") throw new Error("Set WEBHOOK_SECRET to the subscription's signing secret")
  const port = Number(process.env.PORT ?? "4000")
  createWebhookReceiver({
    secret,
    onEvent: (event) => console.log(JSON.stringify({ id: event.id, topic: event.topic, body: event.body }))
  }).listen(port, "127.0.0.1", () => console.log(`webhook receiver on http://127.0.0.1:${port}/hook`))
}
