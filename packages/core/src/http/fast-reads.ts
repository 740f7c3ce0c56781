import { Clock, Effect } from "effect"
import { ifNoneMatchHits } from "../domain/etag.js"
import { envelopeOf } from "../presenters/envelope.js"
import { pricingReadHeaders } from "../presenters/pricing-read.js"
import { storeMeView } from "../presenters/store.js"
import { type ApiKeyPrincipal, Credentials } from "../services/credentials/credentials.js"
import type { Store } from "../domain/credentials/principal.js"
import { PricingCache } from "../services/pricing/cache.js"
import { Metrics } from "../services/operations/metrics.js"
import { RateLimiter } from "../services/requests/rate-limiter.js"
import { Settings } from "../services/settings.js"
import { SigncraftApi } from "./api/index.js"
import { envelopeHead, envelopeTail, envelopeText } from "./handlers/envelope.js"
import { DIAGNOSTIC_HEADER, endpointRulesOf, makeHeldKeyChecks } from "./middleware/held-key-checks.js"
import type { RouteUrlOf } from "./base-path.js"
import { makeRequestFrame, type RequestLogger } from "./request-frame.js"
import type { RequestInfo } from "./request-info.js"

/** An answer written straight to the connection. */
export interface FastAnswer {
  readonly status: number
  /** Every header the answer carries, `content-length` included (but on a 304). */
  readonly headers: Readonly<Record<string, string>>
  /** Text, or bytes already encoded as UTF-8. */
  readonly body: string | Buffer
}

/** Request headers as node:http gives them: lower-cased names, `set-cookie` alone as a list. */
export type IncomingHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * Answers the hottest reads from what this process holds, or returns undefined so the request
 * takes the full path. The answer is the full path's to the byte (the same frame, checks,
 * presenters and log line), but without building a request for the framework.
 */
export type FastReads = (method: string, url: string, headers: IncomingHeaders, peer: string) => FastAnswer | undefined

/** Where a host finds the app's fast reads once the app is built (undefined before, and after it closes). */
export interface FastReadsSlot {
  answer: FastReads | undefined
}

const single = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : undefined

const BEARER = "Bearer "
const JSON_CONTENT: Readonly<Record<string, string>> = { "content-type": "application/json" }

// A path segment the id rule (`ResourceIdParam`) accepts: decimal digits, no sign, no leading
// zero, a safe integer. Anything else goes the full way, which answers it.
const idOf = (segment: string): number | undefined => {
  if (segment.length === 0 || segment.length > 16 || segment.charCodeAt(0) === 48) return undefined
  for (let index = 0; index < segment.length; index += 1) {
    const code = segment.charCodeAt(index)
    if (code < 48 || code > 57) return undefined
  }
  const id = Number(segment)
  return Number.isSafeInteger(id) ? id : undefined
}

/**
 * Builds the fast reads: `GET /api/v3/stores/me` with the key's Store held, and
 * `GET /api/v3/customisers/{id}/pricing` with the document cached, each for a key verified and
 * tokens held in this process, under the base path (`routeUrlOf`, as the router middleware
 * applies it). Every other request, and every failure, takes the full path.
 */
export const makeFastReads = (log: RequestLogger, agentPath: string | undefined, routeUrlOf: RouteUrlOf) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const credentials = yield* Credentials
    const limiter = yield* RateLimiter
    const pricingCache = yield* PricingCache
    // The same clock the full path reads, so a key it verified is trusted here for the same second.
    const clock = yield* Clock.Clock
    const frame = makeRequestFrame(settings, agentPath, yield* Metrics)
    const checks = makeHeldKeyChecks(settings, credentials, limiter)
    const me = SigncraftApi.groups.v3Stores.endpoints.me
    const pricing = SigncraftApi.groups.v3Customisers.endpoints.getPricing
    const meRules = endpointRulesOf(me)
    const pricingRules = endpointRulesOf(pricing)
    const [pricingPrefix = "", pricingSuffix = ""] = pricing.path.split(":customiser_id")

    // The Store as a key sees it, as JSON: the same for every request of that key while it is
    // cached (the verified key is one object for as long as Credentials holds it).
    const storeJson = new WeakMap<ApiKeyPrincipal, string>()
    const storeJsonOf = (principal: ApiKeyPrincipal, store: Store): string => {
      const known = storeJson.get(principal)
      if (known !== undefined) return known
      const json = JSON.stringify(storeMeView(principal, store))
      storeJson.set(principal, json)
      return json
    }

    // A cached pricing document's answer up to its `meta`, as UTF-8: a document of several KB is
    // encoded once, not on every read, where it was a visible share of the read's cost. Kept by the
    // cache entry's identity, like the Store's JSON above: an entry the pricing cache replaces or
    // evicts is unreachable, and its bytes go with it, so the cache's own bound holds for these.
    const heads = new WeakMap<object, { readonly linksJson: string; readonly bytes: Buffer }>()
    const headOf = (document: { readonly json: string }, linksJson: string): Buffer => {
      const known = heads.get(document)
      if (known !== undefined && known.linksJson === linksJson) return known.bytes
      const bytes = Buffer.from(envelopeHead(document.json, linksJson))
      heads.set(document, { linksJson, bytes })
      return bytes
    }
    const pricingBody = (document: { readonly json: string }, shell: { readonly links: unknown; readonly meta: unknown }): Buffer =>
      Buffer.concat([headOf(document, JSON.stringify(shell.links)), Buffer.from(envelopeTail(shell.meta))])

    // The answer's headers in the order the full path applies them: the handler's, then what
    // inner layers asked for, then the router's closing ones, then the length. The last step is one
    // object spread: V8 clones a spread source's shape, where adding the same keys one by one to
    // an object measured about twice as slow.
    const answer = (status: number, own: Readonly<Record<string, string>>, body: string | Buffer, info: RequestInfo): FastAnswer => {
      const inner: Record<string, string> = { ...own }
      for (const [name, value] of info.responseHeaders) inner[name] = value
      // A 304 has no content, and a length of 0 would misstate the representation's (RFC 9110 §8.6).
      const headers = status === 304
        ? { ...inner, ...frame.closingHeaders(info) }
        : { ...inner, ...frame.closingHeaders(info), "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.length) }
      return { status, headers, body }
    }

    const fastReads: FastReads = (method, arrivedUrl, headers, peer) => {
      if (method !== "GET") return undefined
      const url = routeUrlOf(arrivedUrl)
      if (url === undefined) return undefined
      const authorization = single(headers.authorization)
      if (authorization === undefined || !authorization.startsWith(BEARER) || authorization.charCodeAt(BEARER.length) === 32) {
        return undefined
      }
      const isMe = url === me.path
      const customiserId = !isMe && url.startsWith(pricingPrefix) && url.endsWith(pricingSuffix)
        ? idOf(url.slice(pricingPrefix.length, url.length - pricingSuffix.length))
        : undefined
      if (!isMe && customiserId === undefined) return undefined
      const startedAt = performance.now()
      const now = clock.currentTimeMillisUnsafe()
      // What the answer needs, looked at before any token is spent: falling back afterwards
      // would spend them twice.
      const principal = credentials.verifiedUnsafe(authorization.slice(BEARER.length), now)
      if (principal === undefined) return undefined
      // The document to send: the key's Store, or the cached pricing if it is this Store's.
      const store = principal.store
      const document: { readonly json: string; readonly etag?: string } | undefined = customiserId === undefined
        ? store === undefined ? undefined : { json: storeJsonOf(principal, store) }
        : pricingCache.get(customiserId, principal.storeId)
      if (document === undefined) return undefined
      const { info, pathname } = frame.begin(url, { origin: single(headers.origin), "x-forwarded-for": single(headers["x-forwarded-for"]) }, peer)
      if (!checks.admitHeld(info, principal, single(headers[DIAGNOSTIC_HEADER]), isMe ? meRules : pricingRules, now)) return undefined
      const shell = envelopeOf(null, info, settings.baseUrl)
      const served = document.etag === undefined
        ? answer(200, JSON_CONTENT, envelopeText(document.json, shell), info)
        : ifNoneMatchHits(single(headers["if-none-match"]), document.etag)
        ? answer(304, pricingReadHeaders(document.etag), "", info)
        : answer(200, { ...JSON_CONTENT, ...pricingReadHeaders(document.etag) }, pricingBody(document, shell), info)
      frame.recordAnswer(log, info, {
        method,
        template: isMe ? me.path : pricing.path,
        pathname,
        status: served.status,
        startedAt,
        replayed: false
      })
      return served
    }
    return fastReads
  })
