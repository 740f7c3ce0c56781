import { Effect } from "effect"
import { Agent as HttpAgent, request as httpRequest } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"

/** What one POST to a receiver came to. */
export type SendOutcome =
  | { readonly _tag: "Answered"; readonly status: number }
  | { readonly _tag: "Failed"; readonly error: string }

/** Longest a receiver may take to answer a delivery (operating contract §4). */
export const DELIVERY_TIMEOUT_MS = 10_000

// Bodies of answers are read and discarded up to this size: only the status matters.
const MAX_ANSWER_BYTES = 64 * 1024

// Kept-alive connections: a busy receiver gets many deliveries over few sockets.
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 })
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 })

/**
 * POSTs `body` to `url` with `headers`, within `timeoutMs` for the whole exchange. Redirects are
 * not followed (a 3xx is an answer like any non-2xx). `lookup`, when given, decides which
 * addresses may be connected to. Never fails: network errors and timeouts are outcomes.
 */
export const postDelivery = (
  url: URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: { readonly timeoutMs?: number; readonly lookup?: LookupFunction | undefined } = {}
): Effect.Effect<SendOutcome> =>
  Effect.callback<SendOutcome>((resume) => {
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
    const secure = url.protocol === "https:"
    let settled = false
    const finish = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(Effect.succeed(outcome))
    }
    const send = secure ? httpsRequest : httpRequest
    const req = send(url, {
      method: "POST",
      agent: secure ? httpsAgent : httpAgent,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      ...(options.lookup === undefined ? {} : { lookup: options.lookup })
    }, (res) => {
      let received = 0
      res.on("data", (chunk: Buffer) => {
        received += chunk.length
        if (received > MAX_ANSWER_BYTES) res.destroy()
      })
      res.on("end", () => finish({ _tag: "Answered", status: res.statusCode ?? 0 }))
      res.on("close", () => finish({ _tag: "Answered", status: res.statusCode ?? 0 }))
      res.on("error", () => finish({ _tag: "Answered", status: res.statusCode ?? 0 }))
    })
    const timer = setTimeout(() => {
      req.destroy()
      finish({ _tag: "Failed", error: `timeout after ${timeoutMs} ms` })
    }, timeoutMs)
    req.on("error", (error: NodeJS.ErrnoException) => finish({ _tag: "Failed", error: error.code ?? error.message }))
    req.end(body)
    return Effect.sync(() => {
      clearTimeout(timer)
      req.destroy()
    })
  })
