import { Context, Data, Effect, Layer, Result } from "effect"
import { type ClientRequest, Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import { allowsLoopback, checkDeliveryUrl, type DeliveryUrlFault } from "../../domain/outbound/delivery-url.js"
import { guardedLookupFor } from "./delivery-url-guard.js"
import { type Environment, Settings } from "../settings.js"

/**
 * Longest a receiver may take to answer, whole exchange included: webhook deliveries and the
 * integration's create-product call alike: a receiver that takes longer is treated as failed.
 */
export const OUTBOUND_TIMEOUT_MS = 10_000

/** Most bytes of an answer's body that are read; receivers answer a small JSON object. */
export const OUTBOUND_MAX_RESPONSE_BYTES = 64 * 1024

/** The `user-agent` of every request the service sends (deliveries and integration calls). */
export const USER_AGENT = "signcraft-webhooks/1"

/**
 * Why a request got no answer. `reason` is safe to log and to show; `detail` is the URL fault's
 * text, the socket's error code (e.g. `ECONNREFUSED`, `EFORBIDDEN` from the guarded lookup) or
 * message, or the timeout, and is what a delivery attempt records.
 */
export class OutboundHttpFailed extends Data.TaggedError("OutboundHttpFailed")<{
  readonly reason: "refused_url" | "forbidden_address" | "network" | "timeout"
  readonly detail: string
}> {}

/**
 * An HTTP answer, whatever its status (redirects are answers, never followed). `bodyRead` says
 * whether `body` is the whole body, its first bytes up to the cap (the rest was refused), or what
 * came before the connection broke; the status stands in every case.
 */
export interface OutboundResponse {
  readonly status: number
  readonly body: string
  readonly bodyRead: "whole" | "capped" | "broken"
  /** The answer's `Retry-After` header, when it carried one. */
  readonly retryAfter?: string
}

/** One POST of a JSON body. */
export interface OutboundRequest {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * Where requests may go: the URL text is judged before anything is sent, and `lookup` (when
 * given) judges every resolved address when connecting, so a name cannot be re-pointed at an
 * internal address between a check and the connection (DNS rebinding).
 */
export interface OutboundPolicy {
  readonly checkUrl: (raw: string) => Result.Result<URL, DeliveryUrlFault>
  readonly lookup: LookupFunction | undefined
}

/**
 * The deployment's outbound policy (docs/security.md): in every environment no link-local,
 * metadata, private or unspecified address, every resolved address checked on connect; in
 * production also https only and no loopback, while development and test allow plain HTTP to a
 * local receiver. The one place to change when the policy changes.
 */
export const outboundPolicy = (environment: Environment): OutboundPolicy => ({
  checkUrl: (raw) => {
    const judged = checkDeliveryUrl(raw, environment)
    return judged.ok ? Result.succeed(judged.url) : Result.fail(judged.fault)
  },
  lookup: guardedLookupFor(allowsLoopback(environment))
})

/** Tuning of the node:http client; the defaults are the documented ones (docs/webhooks.md). */
export interface OutboundHttpOptions {
  readonly timeoutMs?: number
  readonly maxResponseBytes?: number
}

const refused = (fault: DeliveryUrlFault) =>
  new OutboundHttpFailed({ reason: fault.code === "forbidden_host" ? "forbidden_address" : "refused_url", detail: fault.detail })

const readBody = (response: IncomingMessage, limit: number) =>
  new Promise<{ readonly body: string; readonly bodyRead: OutboundResponse["bodyRead"] }>((resolve) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const settle = (bodyRead: OutboundResponse["bodyRead"]) =>
      resolve({ body: Buffer.concat(chunks).toString("utf8"), bodyRead })
    response.on("data", (chunk: Buffer) => {
      if (size + chunk.length > limit) {
        chunks.push(chunk.subarray(0, limit - size))
        size = limit
        response.destroy()
        settle("capped")
        return
      }
      size += chunk.length
      chunks.push(chunk)
    })
    response.once("end", () => settle("whole"))
    response.once("error", () => settle("broken"))
    response.once("close", () => settle(response.complete ? "whole" : "broken"))
  })

/** An answer with its headers, for callers that read them (caching, content type). */
export interface OutboundAnswer extends OutboundResponse {
  readonly headers: IncomingHttpHeaders
}

/** The keep-alive agents of one client, closed with its scope. */
export interface OutboundAgents {
  readonly http: HttpAgent
  readonly https: HttpsAgent
}

/** Keep-alive agents (a busy receiver gets many requests over few sockets), closed when the scope closes. */
export const keepAliveAgents = Effect.acquireRelease(
  Effect.sync((): OutboundAgents => ({
    http: new HttpAgent({ keepAlive: true, maxSockets: 64 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 64 })
  })),
  (made) =>
    Effect.sync(() => {
      made.http.destroy()
      made.https.destroy()
    })
)

/**
 * One exchange under `policy`: the URL judged first, every resolved address judged on connect,
 * the whole exchange within `timeoutMs`, at most `limit` bytes of the body read, redirects
 * answered as they are (never followed).
 */
export const makeExchange = (policy: OutboundPolicy, agents: OutboundAgents, timeoutMs: number, limit: number) =>
(
  method: "GET" | "POST",
  raw: string,
  headers: Readonly<Record<string, string>>,
  payload?: string
): Effect.Effect<OutboundAnswer, OutboundHttpFailed> => {
  const checked = policy.checkUrl(raw)
  if (Result.isFailure(checked)) return Effect.fail(refused(checked.failure))
  const url = checked.success
  return Effect.callback<OutboundAnswer, OutboundHttpFailed>((resume) => {
    const secure = url.protocol === "https:"
    const body = payload === undefined ? undefined : Buffer.from(payload, "utf8")
    let settled = false
    const finish = (outcome: Effect.Effect<OutboundAnswer, OutboundHttpFailed>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(outcome)
    }
    const send = (onFreshSocket: boolean): ClientRequest => {
      const sent = (secure ? httpsRequest : httpRequest)(url, {
        method,
        agent: secure ? agents.https : agents.http,
        headers: {
          "user-agent": USER_AGENT,
          ...headers,
          ...(body === undefined ? {} : { "content-length": String(body.length) })
        },
        ...(policy.lookup === undefined ? {} : { lookup: policy.lookup })
      }, (response) => {
        readBody(response, limit).then((read) =>
          finish(Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, ...read }))
        )
      })
      sent.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the receiver closed while idle resets before any answer: the
        // request never reached it, so it goes once more on a new socket (as Node's http
        // documentation advises for `reusedSocket`), not counted as a failed attempt.
        if (!onFreshSocket && sent.reusedSocket && error.code === "ECONNRESET" && !settled) {
          req = send(true)
          return
        }
        const detail = error.code ?? error.message
        finish(Effect.fail(new OutboundHttpFailed({ reason: error.code === "EFORBIDDEN" ? "forbidden_address" : "network", detail })))
      })
      sent.end(body)
      return sent
    }
    let req = send(false)
    const timer = setTimeout(() => {
      finish(Effect.fail(new OutboundHttpFailed({ reason: "timeout", detail: `timeout after ${timeoutMs} ms` })))
      req.destroy()
    }, timeoutMs)
    // Interruption (client gone, server stopping) abandons the exchange.
    return Effect.sync(() => {
      clearTimeout(timer)
      req.destroy()
    })
  })
}

/**
 * Outbound HTTP: the one way the service calls other servers (webhook deliveries, the
 * integration's create-product call). Replace the layer to stub or record requests.
 */
export class OutboundHttp extends Context.Service<OutboundHttp, {
  /**
   * POSTs a JSON body to `url` under the outbound policy, within the timeout for the whole
   * exchange, reading at most the capped body of the answer.
   */
  readonly post: (url: string, request: OutboundRequest) => Effect.Effect<OutboundResponse, OutboundHttpFailed>
}>()("signcraft/OutboundHttp") {
  /**
   * A node:http client under `policy`. It keeps connections alive (a busy receiver gets many
   * deliveries over few sockets) and closes them when the scope closes. node:http rather than
   * Effect's HttpClient because the policy's `lookup` must reach the socket's connect.
   */
  static readonly make = (policy: OutboundPolicy, options: OutboundHttpOptions = {}) =>
    Effect.gen(function*() {
      const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS
      const limit = options.maxResponseBytes ?? OUTBOUND_MAX_RESPONSE_BYTES
      const agents = yield* keepAliveAgents

      const exchange = makeExchange(policy, agents, timeoutMs, limit)
      const post = (raw: string, request: OutboundRequest): Effect.Effect<OutboundResponse, OutboundHttpFailed> =>
        exchange("POST", raw, { ...request.headers, "content-type": "application/json" }, request.body).pipe(
          Effect.map(({ status, body, bodyRead, headers }) => {
            const retryAfter = headers["retry-after"]
            return retryAfter === undefined ? { status, body, bodyRead } : { status, body, bodyRead, retryAfter }
          })
        )
      return OutboundHttp.of({ post })
    })

  /** The deployment's client: {@link outboundPolicy} for the configured environment. */
  static readonly layer = Layer.effect(
    OutboundHttp,
    Effect.gen(function*() {
      const settings = yield* Settings
      return yield* OutboundHttp.make(outboundPolicy(settings.environment))
    })
  )
}
