import { clientAddressOf, quotaAddress } from "../domain/deployment/client-address.js"
import type { MetricsRecorder } from "../services/operations/metrics.js"
import type { ServiceSettings } from "../services/settings.js"
import { type CorsRule, corsHeaders, makeCorsRules } from "./cors.js"
import { deprecationHeaders } from "./deprecation.js"
import { describeFault } from "./faults.js"
import { generationOf } from "./generations.js"
import { newRequestId, type RequestInfo } from "./request-info.js"
import { UNMATCHED_ROUTE } from "./route-table.js"

/** Where request log lines go; the server writes them to stdout (JSON, or text on a terminal). */
export type RequestLogger = (line: Readonly<Record<string, string | number>>) => void

// The methods a metric may name; node:http refuses most others, but a label must stay bounded.
const METRIC_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** What one answered request was, for its log line and its metrics. */
export interface AnsweredRequest {
  readonly method: string
  /** The route template that served it (`/api/v3/customisers/:customiser_id`), if one did. */
  readonly template: string | undefined
  /** Its path, logged when no route served it. */
  readonly pathname: string
  readonly status: number
  /** `performance.now()` when it arrived. */
  readonly startedAt: number
  /** Whether the answer was replayed for an `Idempotency-Key` seen before. */
  readonly replayed: boolean
}

/** What every request gets before it is served: its id, generation, URL, client and CORS rule. */
export interface RequestStart {
  readonly pathname: string
  readonly info: RequestInfo
  readonly cors: CorsRule | undefined
}

/** The path of a URL that may carry a query. */
export const pathnameOf = (url: string): string => {
  const queryAt = url.indexOf("?")
  return queryAt === -1 ? url : url.slice(0, queryAt)
}

/**
 * The frame every request is served in, whichever path serves it (the router middleware, or the
 * fast reads): how it starts, the headers every answer carries, and its log line.
 */
export const makeRequestFrame = (settings: ServiceSettings, agentPath: string | undefined, metrics?: MetricsRecorder) => {
  const legacyHeaders = deprecationHeaders(settings.baseUrl)
  // Every answer: browsers must not sniff a JSON error into something executable; in
  // production, browsers keep to HTTPS for a year (RFC 6797).
  const everyAnswer: Readonly<Record<string, string>> = settings.environment === "production"
    ? { "x-content-type-options": "nosniff", "strict-transport-security": "max-age=31536000; includeSubDomains" }
    : { "x-content-type-options": "nosniff" }
  const trustsNoProxy = settings.trustProxy._tag === "Hops" && settings.trustProxy.hops === 0
  const corsRuleOf = makeCorsRules(settings, agentPath)

  /**
   * Starts a request for `url` (path and query, as the route tables know it) from `peer`, the
   * connection's address; the headers are lower-cased, as node:http and Effect give them. A request
   * nothing here serves (`served` false: outside the base path, or a part switched off) starts
   * as an unknown path does: no generation of its own, no CORS.
   */
  const begin = (url: string, headers: Readonly<Record<string, string | undefined>>, peer: string, served = true): RequestStart => {
    const pathname = pathnameOf(url)
    const info: RequestInfo = {
      requestId: newRequestId(),
      generation: served ? generationOf(pathname, agentPath) : "system",
      baseUrl: settings.baseUrl,
      selfUrl: settings.baseUrl + url,
      // TRUST_PROXY decides how far back X-Forwarded-For is believed; IPv6 counts by its /64.
      clientIp: quotaAddress(trustsNoProxy ? peer : clientAddressOf(peer, headers["x-forwarded-for"], settings.trustProxy)),
      responseHeaders: new Map(),
      faults: []
    }
    const cors = served ? corsRuleOf(pathname) : undefined
    if (cors !== undefined) for (const [name, value] of corsHeaders(cors, headers.origin)) info.responseHeaders.set(name, value)
    return { pathname, info, cors }
  }

  const everyAnswerPairs = Object.entries(everyAnswer).flat()
  const legacyPairs = Object.entries(legacyHeaders).flat()

  /**
   * Appends the headers the router adds last to every answer (request id, nosniff, HSTS,
   * deprecation) to `into`, as name, value, name, value: the form node:http's `writeHead` takes
   * without building an object per answer.
   */
  const appendClosingHeaders = (info: RequestInfo, into: Array<string>): void => {
    into.push("x-request-id", info.requestId)
    for (const part of everyAnswerPairs) into.push(part)
    if (info.generation === "legacy") for (const part of legacyPairs) into.push(part)
  }

  /** {@link appendClosingHeaders} as an object, for the router. */
  const closingHeaders = (info: RequestInfo): Readonly<Record<string, string>> => {
    const pairs: Array<string> = []
    appendClosingHeaders(info, pairs)
    const headers: Record<string, string> = {}
    for (let index = 0; index < pairs.length; index += 2) headers[pairs[index] ?? ""] = pairs[index + 1] ?? ""
    return headers
  }

  /**
   * Writes the request's log line (no headers, no query: no secrets) and an error line for a 5xx,
   * and counts it in the metrics when they are on.
   */
  const recordAnswer = (log: RequestLogger, info: RequestInfo, answered: AnsweredRequest) => {
    const { method, status } = answered
    const durationMs = performance.now() - answered.startedAt
    // Every 5xx leaves an error line with its request id and cause, wherever it was rendered.
    if (status >= 500) {
      log({
        level: "error",
        request_id: info.requestId,
        status,
        message: info.faults.length === 0 ? `answered ${status} with no cause recorded` : info.faults.map(describeFault).join("\n")
      })
    }
    const route = answered.template ?? answered.pathname
    const duration_ms = Math.round(durationMs * 100) / 100
    log(
      info.storeId === undefined
        ? { level: "info", request_id: info.requestId, method, route, status, duration_ms }
        : { level: "info", request_id: info.requestId, method, route, status, duration_ms, store_id: info.storeId }
    )
    if (metrics !== undefined) {
      const template = answered.template ?? UNMATCHED_ROUTE
      metrics.request(template, METRIC_METHODS.has(method) ? method : "OTHER", status, durationMs / 1000)
      if (answered.replayed) metrics.idempotencyReplay(template)
    }
  }

  return { begin, appendClosingHeaders, closingHeaders, recordAnswer }
}
