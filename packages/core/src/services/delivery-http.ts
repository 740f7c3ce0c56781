import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { Data, Effect } from "effect"
import { checkDeliveryUrl, type DeliveryUrlFault } from "../domain/delivery-url.js"
import { guardedLookup } from "./delivery-url-guard.js"
import type { Environment } from "./settings.js"

/** Why a delivery got no usable answer. `reason` is safe to log and to record per attempt. */
export class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{
  readonly reason: "refused_url" | "forbidden_address" | "network" | "timeout" | "response_too_large"
  readonly detail: string
}> {}

/** An HTTP answer to a delivery: any status, the body as text (capped). */
export interface DeliveryResponse {
  readonly status: number
  readonly body: string
}

/** One outgoing POST of a delivery. */
export interface DeliveryRequest {
  readonly url: string
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
  readonly environment: Environment
  /** Whole-exchange deadline; operating contract §4 fixes 10 s for deliveries. */
  readonly timeoutMs?: number
  /** Larger answers are refused; receivers answer a small JSON object. */
  readonly maxResponseBytes?: number
}

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024

const refused = (fault: DeliveryUrlFault) =>
  new DeliveryFailed({ reason: fault.code === "forbidden_host" ? "forbidden_address" : "refused_url", detail: fault.detail })

const readBody = (response: IncomingMessage, limit: number) =>
  new Promise<string | undefined>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    response.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        response.destroy()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    })
    response.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    response.once("error", reject)
  })

/**
 * POSTs one delivery under the URL policy: the URL shape is checked first, every resolved
 * address when connecting; redirects are not followed (a 3xx is just an answer); the whole
 * exchange has a deadline and the answer a size cap.
 */
export const postJsonDelivery = (delivery: DeliveryRequest): Effect.Effect<DeliveryResponse, DeliveryFailed> => {
  const checked = checkDeliveryUrl(delivery.url, delivery.environment)
  if (!checked.ok) return Effect.fail(refused(checked.fault))
  const url = checked.url
  const timeoutMs = delivery.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const limit = delivery.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  return Effect.callback<DeliveryResponse, DeliveryFailed>((resume) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const body = Buffer.from(delivery.body, "utf8")
    const req = send(url, {
      method: "POST",
      headers: { ...delivery.headers, "content-type": "application/json", "content-length": String(body.length) },
      // In production every resolved address is checked when connecting (no DNS rebinding gap).
      ...(delivery.environment === "production" ? { lookup: guardedLookup } : {}),
      agent: false
    })
    const timer = setTimeout(() => {
      req.destroy(new DeliveryFailed({ reason: "timeout", detail: `No complete answer within ${timeoutMs} ms.` }))
    }, timeoutMs)
    let settled = false
    const finish = (outcome: Effect.Effect<DeliveryResponse, DeliveryFailed>) => {
      clearTimeout(timer)
      if (settled) return
      settled = true
      resume(outcome)
    }
    req.once("response", (response) => {
      readBody(response, limit).then(
        (text) =>
          finish(text === undefined
            ? Effect.fail(new DeliveryFailed({ reason: "response_too_large", detail: `The answer exceeds ${limit} bytes.` }))
            : Effect.succeed({ status: response.statusCode ?? 0, body: text })),
        (error: unknown) => finish(Effect.fail(new DeliveryFailed({ reason: "network", detail: String(error) })))
      )
    })
    req.once("error", (error: Error) => {
      if (error instanceof DeliveryFailed) return finish(Effect.fail(error))
      const forbidden = (error as { code?: string }).code === "EFORBIDDEN"
      finish(Effect.fail(new DeliveryFailed({
        reason: forbidden ? "forbidden_address" : "network",
        detail: forbidden ? "The host resolves to a loopback, private, link-local or metadata address." : error.message
      })))
    })
    req.end(body)
    // Interruption (client gone, server stopping) abandons the exchange.
    return Effect.sync(() => {
      clearTimeout(timer)
      req.destroy()
    })
  })
}
