import { ByteSize, Cause, Context, Effect, Option, Tracer, type Types } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { MaxBodySize } from "effect/http/HttpIncomingMessage"
import {
  type ApiFailure,
  InternalError,
  MalformedRequest,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType,
  ValidationFailed
} from "../domain/errors.js"
import { findUnacceptableValue } from "../domain/input/json-input.js"
import { Metrics } from "../services/operations/metrics.js"
import { Settings } from "../services/settings.js"
import { describeFailure } from "../presenters/failure-table.js"
import { classifyRequestError } from "./middleware/request-failures.js"
import { ClientAddress, CurrentRequest, type RequestInfo } from "./request-info.js"
import { atOriginRoot, type RouteUrlOf } from "./base-path.js"
import { makeRequestFrame, pathnameOf, type RequestLogger } from "./request-frame.js"
import { renderFailure } from "./respond.js"
import { makeAllowedMethods, makeRouteTemplateOf, type RouteEntry } from "./route-table.js"
import { type CorsRule, preflightHeaders } from "./cors.js"
import { makeSwitchedOff } from "./switches.js"

export type { RequestLogger } from "./request-frame.js"

// Every route is written without a trailing slash: `/api/v3/orders/` is not `/api/v3/orders`, and
// answering both would give one resource two URLs (and two cache keys). The root is `/` itself.
const hasTrailingSlash = (pathname: string): boolean => pathname.length > 1 && pathname.endsWith("/")

// The failure a framework-built error response (unknown route, unsupported media type, …)
// stands for, so it answers in the same format as every other error.
const frameworkFailure = (status: number, maxBodyBytes: number): ApiFailure =>
  status === 404
    ? new NotFound({ resource: "route" })
    : status === 413
    ? new PayloadTooLarge({ limitBytes: maxBodyBytes })
    : status === 415
    ? new UnsupportedMediaType()
    : status >= 500
    ? new InternalError({})
    : new MalformedRequest({ detail: "The request cannot be served." })

const normaliseFrameworkError = (
  response: HttpServerResponse.HttpServerResponse,
  info: RequestInfo,
  maxBodyBytes: number
): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400) return response
  // Our own error answers are JSON, or the OAuth error page; the framework's are neither.
  const contentType = response.headers["content-type"] ?? ""
  if (contentType.includes("json") || contentType.startsWith("text/html")) return response
  return renderFailure(describeFailure(frameworkFailure(response.status, maxBodyBytes)), info)
}

// Generations whose JSON bodies are read by HttpApi handlers; the OAuth and agent endpoints
// answer in their own protocols' formats and check their own input.
const inspectedGenerations: ReadonlySet<string> = new Set(["v3", "legacy", "operator", "storefront"])
const bodyMethods: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"])

const isJsonBody = (request: HttpServerRequest.HttpServerRequest, info: RequestInfo): boolean =>
  bodyMethods.has(request.method) && inspectedGenerations.has(info.generation) &&
  (request.headers["content-type"] ?? "").toLowerCase().includes("json")

// A body whose length is not declared up front (chunked on a socket, a stream in a web
// Request), on a method that may carry one.
const hasUndeclaredBody = (request: HttpServerRequest.HttpServerRequest, info: RequestInfo): boolean =>
  request.method !== "GET" && request.method !== "HEAD" && request.headers["content-length"] === undefined &&
  inspectedGenerations.has(info.generation) &&
  (request.headers["transfer-encoding"] !== undefined || (request.source instanceof Request && request.source.body !== null))

// Values no field can take (NUL, unpaired surrogates, overflowing numbers, nesting deeper
// than 64) are refused naming the field before any handler, schema or database sees them.
// Unparseable text is left to the handler, which answers it as a malformed body.
const unacceptableBody = (text: string, info: RequestInfo): ApiFailure | undefined => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  info.parsedBody = { value: body }
  const fault = findUnacceptableValue(body)
  return fault === undefined ? undefined : new ValidationFailed({ errors: [fault] })
}

// Whether a request has a body the guard reads (cheap: decided from the method and headers).
const carriesBody = (request: HttpServerRequest.HttpServerRequest, info: RequestInfo): boolean =>
  isJsonBody(request, info) || hasUndeclaredBody(request, info)

// The request's own effect, behind the body check where its body is JSON.
const inspectBody = (
  request: HttpServerRequest.HttpServerRequest,
  info: RequestInfo,
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest> =>
  isJsonBody(request, info)
    ? Effect.flatMap(request.text, (text) => {
      const refused = unacceptableBody(text, info)
      return refused === undefined ? httpEffect : Effect.fail(refused)
    })
    : hasUndeclaredBody(request, info)
    // Read (up to the limit) even where the handler ignores it, so an oversized chunked body
    // is a 413 with the connection closed, never a left-over stream on a kept-alive socket.
    ? Effect.flatMap(request.arrayBuffer, () => httpEffect)
    : httpEffect

/**
 * The outermost layer of every request: gives it a request id, answers CORS (docs/cors.md)
 * for the paths browsers may call, enforces the body limit,
 * refuses bodies no field can take, answers a known path with another method with 405,
 * answers anything unanswered in the right error format, adds the request id and the
 * deprecation headers, writes one log line (no headers, no query: no secrets), counts the request
 * in the metrics when they are on, and names its server span's request and Store when traced.
 */
export const layerRouterMiddleware = (
  log: RequestLogger,
  routes: ReadonlyArray<RouteEntry>,
  /** Where this listener serves the agent endpoint, whose failures are JSON-RPC errors. */
  agentPath?: string,
  /** Where the request lands in the route tables (the base path taken off), if it is served here at all. */
  routeUrlOf: RouteUrlOf = atOriginRoot
) =>
  HttpRouter.middleware(
    Effect.gen(function*() {
      const settings = yield* Settings
      const maxBody = ByteSize.bytes(settings.maxBodyBytes)
      const frame = makeRequestFrame(settings, agentPath, yield* Metrics)
      const allowedMethods = makeAllowedMethods(routes)
      const templateOf = makeRouteTemplateOf(routes)
      // Decided once: with the native tracer no span is exported, and nothing is looked up per request.
      const traced = (yield* Tracer.Tracer) !== Tracer.nativeTracer
      const switchedOff = makeSwitchedOff(settings.disable, agentPath)
      const unknownRoute = describeFailure(new NotFound({ resource: "route" }))
      // Bodies are inspected only where a route will serve them: an unknown path stays a 404,
      // a wrong method a 405, and a disabled operator API keeps answering 404.
      const willServe = (request: HttpServerRequest.HttpServerRequest, info: RequestInfo): boolean =>
        (info.generation !== "operator" || settings.operatorToken !== undefined) &&
        allowedMethods(request.url).includes(request.method)
      // An unknown route whose path has other methods is a 405, not a 404; a path browsers may
      // call answers OPTIONS too (its preflight).
      const refine = (failure: ApiFailure, url: string, cors: CorsRule | undefined): ApiFailure => {
        if (failure._tag !== "NotFound" || failure.resource !== "route") return failure
        const allowed = allowedMethods(url)
        if (allowed.length === 0) return failure
        return new MethodNotAllowed({ allowed: cors === undefined ? allowed : [...allowed, "OPTIONS"].sort() })
      }

      // Everything a request gets before its handler runs, read from the context once.
      // The request goes on with the URL the route tables know: the base path is taken off here,
      // once, before the router looks for a route.
      const begin = (context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const arrived = Context.getUnsafe(context, HttpServerRequest.HttpServerRequest)
        const routeUrl = routeUrlOf(arrived.url)
        const request = routeUrl === undefined || routeUrl === arrived.url ? arrived : arrived.modify({ url: routeUrl })
        const served = routeUrl !== undefined && !hasTrailingSlash(pathnameOf(routeUrl)) && !switchedOff(pathnameOf(routeUrl))
        // Hosts that are not node:http (adapters) hand the peer address over as ClientAddress.
        const peer = Option.getOrElse(request.remoteAddress, () => Context.get(context, ClientAddress) ?? "unknown")
        const span = traced ? Context.getOrUndefined(context, Tracer.ParentSpan) : undefined
        return { request, rewritten: request !== arrived, span, served, ...frame.begin(request.url, request.headers, peer, served) }
      }

      const finish = (
        response: HttpServerResponse.HttpServerResponse,
        started: ReturnType<typeof begin>,
        startedAt: number
      ) => {
        const { request, pathname, info, span } = started
        const normalised = normaliseFrameworkError(response, info, settings.maxBodyBytes)
        const answered = info.responseHeaders.size === 0 ? normalised : HttpServerResponse.setHeaders(normalised, info.responseHeaders)
        const final = HttpServerResponse.setHeaders(answered, frame.closingHeaders(info))
        frame.recordAnswer(log, info, {
          method: request.method,
          template: started.served ? templateOf(request.method, request.url) : undefined,
          pathname,
          status: final.status,
          startedAt,
          replayed: final.headers["idempotency-replay"] === "true"
        })
        if (span !== undefined && span._tag === "Span") {
          span.attribute("signcraft.request_id", info.requestId)
          if (info.storeId !== undefined) span.attribute("signcraft.store_id", info.storeId)
        }
        return final
      }

      // A chain rather than a generator: this wraps every request.
      return (httpEffect): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
        Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
          const startedAt = performance.now()
          const started = begin(context)
          const { request, info, cors } = started
          const routed = started.rewritten ? Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, request) : httpEffect
          const declaredLength = Number(request.headers["content-length"] ?? "0")
          // A preflight of a path browsers may call is answered here, for every route alike.
          const preflightMethods = cors !== undefined && request.method === "OPTIONS" ? allowedMethods(request.url) : []
          // Outside the base path, or in a part switched off: an unknown path, with no 405 either.
          const served = !started.served
            ? Effect.succeed(renderFailure(unknownRoute, info))
            : preflightMethods.length > 0 && cors !== undefined
            ? Effect.succeed(
              HttpServerResponse.empty({ status: 204, headers: preflightHeaders(cors, request.headers.origin, preflightMethods) })
            )
            : declaredLength > settings.maxBodyBytes
            ? Effect.succeed(
              renderFailure(describeFailure(new PayloadTooLarge({ limitBytes: settings.maxBodyBytes })), info)
            )
            : (carriesBody(request, info) && willServe(request, info) ? inspectBody(request, info, routed) : routed).pipe(
              Effect.provideService(CurrentRequest, info),
              Effect.provideService(MaxBodySize, maxBody),
              Effect.catchCause((cause) => {
                const error = Option.getOrUndefined(Cause.findErrorOption(cause)) ??
                  cause.reasons.find(Cause.isDieReason)?.defect
                const failure = refine(classifyRequestError(error, settings.maxBodyBytes), request.url, cors)
                if (failure._tag === "InternalError" || failure._tag === "ServiceUnavailable") info.faults.push(cause)
                return Effect.succeed(renderFailure(describeFailure(failure), info))
              })
            )
          return Effect.map(served, (response) => finish(response, started, startedAt))
        })
    }),
    { global: true }
  )
