import { clientAddressOf, quotaAddress } from "../domain/client-address.js"
import type { ServiceSettings } from "../services/settings.js"
import { type CorsRule, corsHeaders, makeCorsRules } from "./cors.js"
import { deprecationHeaders } from "./deprecation.js"
import { describeFault } from "./faults.js"
import { generationOf } from "./generations.js"
import { newRequestId, type RequestInfo } from "./request-info.js"

/** Where request log lines go; the server writes them to stdout as JSON. */
export type RequestLogger = (line: Readonly<Record<string, string | number>>) => void

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
export const makeRequestFrame = (settings: ServiceSettings, agentPath: string | undefined) => {
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

  /** The headers the router adds last to every answer: request id, nosniff (HSTS), deprecation. */
  const closingHeaders = (info: RequestInfo): Readonly<Record<string, string>> =>
    info.generation === "legacy"
      ? { "x-request-id": info.requestId, ...everyAnswer, ...legacyHeaders }
      : { "x-request-id": info.requestId, ...everyAnswer }

  /** Writes the request's log line (no headers, no query: no secrets), and an error line for a 5xx. */
  const logAnswer = (log: RequestLogger, info: RequestInfo, method: string, route: string, status: number, startedAt: number) => {
    // Every 5xx leaves an error line with its request id and cause, wherever it was rendered.
    if (status >= 500) {
      log({
        level: "error",
        request_id: info.requestId,
        status,
        message: info.faults.length === 0 ? `answered ${status} with no cause recorded` : info.faults.map(describeFault).join("\n")
      })
    }
    log({
      level: "info",
      request_id: info.requestId,
      method,
      route,
      status,
      duration_ms: Math.round((performance.now() - startedAt) * 100) / 100
    })
  }

  return { begin, closingHeaders, logAnswer }
}
