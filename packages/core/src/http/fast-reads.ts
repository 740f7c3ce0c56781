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
import { envelopeHead, envelopeTail } from "./handlers/envelope.js"
import { DIAGNOSTIC_HEADER, endpointRulesOf, makeHeldKeyChecks } from "./middleware/held-key-checks.js"
import type { RouteUrlOf } from "./base-path.js"
import { makeRequestFrame, type RequestLogger } from "./request-frame.js"
import type { RequestInfo } from "./request-info.js"

/** An answer written straight to the connection. */
export interface FastAnswer {
  readonly status: number
  /**
   * Every header the answer carries, `content-length` included (but on a 304), as name, value,
   * name, value: the form node:http's `writeHead` takes without an object per answer. A fresh
   * array for each answer.
   */
  readonly headers: Array<string>
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
const JSON_CONTENT: ReadonlyArray<string> = ["content-type", "application/json"]

// A document's answer up to its `meta`, for the links it was built with; `bytes` once needed.
interface Head {
  readonly linksJson: string
  readonly text: string
  bytes: Buffer | undefined
}

/** Headers as name, value, name, value. */
const pairsOf = (headers: Readonly<Record<string, string>>): ReadonlyArray<string> => Object.entries(headers).flat()

// Sets a header in pairs: a name already there keeps its place and takes the new value, as a
// header set again on a response does.
const setPair = (pairs: Array<string>, name: string, value: string): void => {
  for (let index = 0; index < pairs.length; index += 2) {
    if (pairs[index] === name) {
      pairs[index + 1] = value
      return
    }
  }
  pairs.push(name, value)
}

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

    // The Store as a key sees it, as a JSON document: the same for every request of that key while
    // it is cached (the verified key is one object for as long as Credentials holds it).
    const storeDocuments = new WeakMap<ApiKeyPrincipal, { readonly json: string }>()
    const storeDocumentOf = (principal: ApiKeyPrincipal, store: Store): { readonly json: string } => {
      const known = storeDocuments.get(principal)
      if (known !== undefined) return known
      const document = { json: JSON.stringify(storeMeView(principal, store)) }
      storeDocuments.set(principal, document)
      return document
    }

    // The envelope's links depend on the request's URL alone (the base URL is the deployment's),
    // and consecutive reads mostly share one: the last one's JSON is kept.
    let lastLinks = { self: "", json: "" }
    const linksJsonOf = (links: { readonly self: string }): string => {
      if (links.self !== lastLinks.self) lastLinks = { self: links.self, json: JSON.stringify(links) }
      return lastLinks.json
    }

    // A document's answer up to its `meta`, as text and (for a pricing document, of several KB)
    // as UTF-8: built once, not on every read, where it was a visible share of the read's cost.
    // Kept by the document's identity: an entry the pricing cache replaces or evicts, or a key
    // Credentials drops, is unreachable, and its head goes with it, so the caches' bounds hold.
    const heads = new WeakMap<object, Head>()
    const headOf = (document: { readonly json: string }, linksJson: string): Head => {
      const known = heads.get(document)
      if (known !== undefined && known.linksJson === linksJson) return known
      const head: Head = { linksJson, text: envelopeHead(document.json, linksJson), bytes: undefined }
      heads.set(document, head)
      return head
    }
    type Shell = { readonly links: { readonly self: string }; readonly meta: unknown }
    const storeBody = (document: { readonly json: string }, shell: Shell): string =>
      headOf(document, linksJsonOf(shell.links)).text + envelopeTail(shell.meta)
    const pricingBody = (document: { readonly json: string }, shell: Shell): Buffer => {
      const head = headOf(document, linksJsonOf(shell.links))
      head.bytes ??= Buffer.from(head.text)
      return Buffer.concat([head.bytes, Buffer.from(envelopeTail(shell.meta))])
    }

    // A cached pricing document's own headers (its entity tag and caching rule) as pairs, for a
    // 200 and for a 304, kept by the cache entry's identity like its head.
    const validators = new WeakMap<object, { readonly ok: ReadonlyArray<string>; readonly notModified: ReadonlyArray<string> }>()
    const validatorsOf = (document: object, etag: string) => {
      const known = validators.get(document)
      if (known !== undefined) return known
      const notModified = pairsOf(pricingReadHeaders(etag))
      const made = { ok: [...JSON_CONTENT, ...notModified], notModified }
      validators.set(document, made)
      return made
    }

    // The answer's headers in the order the full path applies them: the handler's, then what
    // inner layers asked for, then the router's closing ones, then the length.
    const answer = (status: number, own: ReadonlyArray<string>, body: string | Buffer, info: RequestInfo): FastAnswer => {
      const headers = own.slice()
      for (const [name, value] of info.responseHeaders) setPair(headers, name, value)
      frame.appendClosingHeaders(info, headers)
      // A 304 has no content, and a length of 0 would misstate the representation's (RFC 9110 §8.6).
      if (status !== 304) headers.push("content-length", String(typeof body === "string" ? Buffer.byteLength(body) : body.length))
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
        ? store === undefined ? undefined : storeDocumentOf(principal, store)
        : pricingCache.get(customiserId, principal.storeId)
      if (document === undefined) return undefined
      const { info, pathname } = frame.begin(url, { origin: single(headers.origin), "x-forwarded-for": single(headers["x-forwarded-for"]) }, peer)
      if (!checks.admitHeld(info, principal, single(headers[DIAGNOSTIC_HEADER]), isMe ? meRules : pricingRules, now)) return undefined
      const shell = envelopeOf(null, info, settings.baseUrl)
      const served = document.etag === undefined
        ? answer(200, JSON_CONTENT, storeBody(document, shell), info)
        : ifNoneMatchHits(single(headers["if-none-match"]), document.etag)
        ? answer(304, validatorsOf(document, document.etag).notModified, "", info)
        : answer(200, validatorsOf(document, document.etag).ok, pricingBody(document, shell), info)
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
