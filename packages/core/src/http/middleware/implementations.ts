import { Clock, Context, Effect, Layer, Redacted } from "effect"
import type { Types } from "effect"
import { type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { createHash, timingSafeEqual } from "node:crypto"
import {
  type ApiFailure,
  IdempotencyKeyRequired,
  InsufficientScope,
  InvalidCredential,
  MalformedRequest,
  MissingCredential,
  NotFound,
  RateLimited
} from "../../domain/errors.js"
import { grantAllows, grantedScopes, type Scope } from "../../domain/scopes.js"
import { type ApiKeyPrincipal, Credentials } from "../../services/credentials.js"
import { DeprecatedUsage } from "../../services/deprecated-usage.js"
import { IdempotencyStore, type StoredResponse } from "../../services/idempotency.js"
import { RateLimiter } from "../../services/rate-limiter.js"
import { type ServiceSettings, Settings } from "../../services/settings.js"
import { acceptedScopes, DeprecatedOperation, Idempotency, RequiredScope } from "../annotations.js"
import { describeFailure } from "../../presenters/failure-table.js"
import { CurrentRequest, type RequestInfo } from "../request-info.js"
import { renderFailure, respondWithFailure } from "../respond.js"
import { canonicalFingerprint, responseBodyText } from "./body.js"
import {
  ApiKeyAuth,
  CurrentPrincipal,
  IdempotentWrites,
  LegacyApiKeyAuth,
  LegacyRequestFailures,
  RequestFailures,
  OperatorAuth,
  PublicAccess
} from "./definitions.js"
import { apiFailureOf, catchAllAsApiFailure } from "./request-failures.js"

const DIAGNOSTIC_HEADER = "x-signcraft-rate-limit-test"

/**
 * Serves the inner effect, answering every failure it raises as the request's generation
 * expects. One handler for failures and defects alike; interruption passes through.
 */
const guarded = <R>(
  effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>,
  settings: ServiceSettings
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.catchCause(effect, (cause) => {
    const failure = apiFailureOf(cause, settings.maxBodyBytes)
    return failure === undefined
      ? Effect.interrupt
      : Effect.map(Effect.service(CurrentRequest), (info) => renderFailure(describeFailure(failure), info, settings.baseUrl))
  })

/** A response, or a failure the middleware answers for the endpoint. */
type Served<R> = Effect.Effect<HttpServerResponse.HttpServerResponse, ApiFailure | Types.unhandled, R>

const perIpQuota = (limiter: RateLimiter["Service"], settings: ServiceSettings, info: RequestInfo) =>
  Effect.flatMap(
    limiter.take(`ip:${info.clientIp}`, settings.rateLimitPerIpPerMinute, 60),
    (admission) =>
      admission._tag === "Limited" ? Effect.fail(new RateLimited({ retryAfter: admission.retryAfterSeconds })) : Effect.void
  )

/** The shape of an API-key security middleware: it answers every failure itself. */
type ApiKeyMiddleware = {
  readonly apiKey: (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
    options: {
      readonly credential: Redacted.Redacted<string>
      readonly endpoint: HttpApiEndpoint.Top
      readonly group: HttpApiGroup.Top
    }
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpRouter.Provided>
}

// Whether the key holds one of the accepted scopes (any key passes an endpoint that needs none).
const allowsAny = (principal: ApiKeyPrincipal, accepted: ReadonlyArray<Scope>): boolean =>
  accepted.length === 0 || accepted.some((scope) => grantAllows(principal.grant, scope))

/** What an endpoint's annotations ask of the API-key middleware, read once per endpoint. */
interface EndpointRules {
  /** The scopes of which the key needs one; empty when the endpoint needs none. */
  readonly accepted: ReadonlyArray<Scope>
  readonly operation: string | undefined
}

const makeApiKeyAuth = Effect.gen(function*() {
  const settings = yield* Settings
  const credentials = yield* Credentials
  const limiter = yield* RateLimiter
  const usage = yield* DeprecatedUsage
  const rules = new WeakMap<HttpApiEndpoint.Top, EndpointRules>()
  const rulesOf = (endpoint: HttpApiEndpoint.Top): EndpointRules => {
    const known = rules.get(endpoint)
    if (known !== undefined) return known
    const read: EndpointRules = {
      accepted: acceptedScopes(Context.get(endpoint.annotations, RequiredScope)),
      operation: Context.get(endpoint.annotations, DeprecatedOperation)
    }
    rules.set(endpoint, read)
    return read
  }

  const isDiagnostic = (principal: ApiKeyPrincipal, request: HttpServerRequest.HttpServerRequest) =>
    settings.environment !== "production" && principal.mode === "test" &&
    request.headers[DIAGNOSTIC_HEADER]?.toLowerCase() === "true"

  // The checks after the key is known: its quota (or the diagnostic bucket), the
  // endpoint's scope, deprecated-usage counting, then the endpoint itself.
  const admit = (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
    principal: ApiKeyPrincipal,
    request: HttpServerRequest.HttpServerRequest,
    endpointRules: EndpointRules
  ) => {
    const admission = isDiagnostic(principal, request)
      ? limiter.cooldown(`diagnostic:${principal.keyId}`, 5)
      : limiter.take(`key:${principal.keyId}`, settings.rateLimitPerKeyPerMinute, 60)
    return Effect.flatMap(admission, (admitted): Served<HttpRouter.Provided> => {
      if (admitted._tag === "Limited") return Effect.fail(new RateLimited({ retryAfter: admitted.retryAfterSeconds }))
      const { accepted, operation } = endpointRules
      if (!allowsAny(principal, accepted)) {
        return Effect.fail(new InsufficientScope({ required: accepted, granted: grantedScopes(principal.grant) }))
      }
      const served = Effect.provideService(httpEffect, CurrentPrincipal, principal)
      return operation === undefined ? served : Effect.andThen(usage.record(principal.keyId, operation), served)
    })
  }

  // The same checks as `checked` below, for the common case where every answer is held
  // in this process: a spare token of the client's IP, a key verified within the cache
  // bound, a spare token of the key. Then no effect is built for the checks at all.
  const heldAdmission = (
    info: RequestInfo,
    presented: string,
    request: HttpServerRequest.HttpServerRequest,
    endpointRules: EndpointRules,
    now: number
  ): ApiKeyPrincipal | undefined => {
    if (presented === "") return undefined
    const principal = credentials.verifiedUnsafe(presented, now)
    if (principal === undefined || isDiagnostic(principal, request)) return undefined
    const { accepted, operation } = endpointRules
    if (operation !== undefined || !allowsAny(principal, accepted)) return undefined
    // The IP token is spent only when the key's is known to be held too, so that
    // falling back to the full checks never spends a token twice.
    const ipBucket = `ip:${info.clientIp}`
    const keyBucket = `key:${principal.keyId}`
    if (!limiter.holdsToken(ipBucket, 60, now) || !limiter.holdsToken(keyBucket, 60, now)) return undefined
    limiter.takeHeldUnsafe(ipBucket, settings.rateLimitPerIpPerMinute, 60, now)
    limiter.takeHeldUnsafe(keyBucket, settings.rateLimitPerKeyPerMinute, 60, now)
    return principal
  }

  // Written as a chain rather than a generator: this runs on nearly every request.
  const checked = (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
    info: RequestInfo,
    presented: string,
    request: HttpServerRequest.HttpServerRequest,
    endpointRules: EndpointRules
  ): Served<HttpRouter.Provided> =>
    Effect.flatMap(perIpQuota(limiter, settings, info), () => {
      if (presented === "") return Effect.fail(new MissingCredential({ kind: "api_key" }))
      return Effect.flatMap(credentials.verify(presented), (principal) => admit(httpEffect, principal, request, endpointRules))
    })

  const middleware: ApiKeyMiddleware = {
    apiKey: (httpEffect, { credential, endpoint }) =>
      guarded(
        Clock.clockWith((clock) =>
          Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>): Served<HttpRouter.Provided> => {
            const info = Context.get(context, CurrentRequest)
            const request = Context.get(context, HttpServerRequest.HttpServerRequest)
            const presented = Redacted.value(credential)
            const endpointRules = rulesOf(endpoint)
            const principal = heldAdmission(info, presented, request, endpointRules, clock.currentTimeMillisUnsafe())
            return principal === undefined
              ? checked(httpEffect, info, presented, request, endpointRules)
              : Effect.provideService(httpEffect, CurrentPrincipal, principal)
          })
        ),
        settings
      )
  }
  return middleware
})

/** The v3 API-key middleware. */
export const layerApiKeyAuth = Layer.effect(ApiKeyAuth, makeApiKeyAuth)
/** The previous-generation API-key middleware (same checks, legacy error format). */
export const layerLegacyApiKeyAuth = Layer.effect(LegacyApiKeyAuth, makeApiKeyAuth)

const digest = (value: string) => createHash("sha256").update(value).digest()

/** The operator API's bearer check, in constant time. */
export const layerOperatorAuth = Layer.effect(
  OperatorAuth,
  Effect.gen(function*() {
    const settings = yield* Settings
    const expected = settings.operatorToken === undefined ? undefined : digest(Redacted.value(settings.operatorToken))
    return {
      operatorToken: (httpEffect, { credential }) =>
        guarded(
          Effect.suspend((): Served<never> => {
            if (expected === undefined) return Effect.fail(new NotFound({ resource: "route" }))
            const presented = Redacted.value(credential)
            if (presented === "") return Effect.fail(new MissingCredential({ kind: "operator_token" }))
            if (!timingSafeEqual(digest(presented), expected)) {
              return Effect.fail(new InvalidCredential({ kind: "operator_token", reason: "unknown" }))
            }
            return httpEffect
          }),
          settings
        )
    }
  })
)

/** Public endpoints: the per-IP quota and problem rendering. */
export const layerPublicAccess = Layer.effect(
  PublicAccess,
  Effect.gen(function*() {
    const settings = yield* Settings
    const limiter = yield* RateLimiter
    return (httpEffect) =>
      guarded(
        Clock.clockWith((clock) =>
          Effect.flatMap(Effect.service(CurrentRequest), (info) => {
            // A token this process holds admits the request without building the quota effect.
            const bucket = `ip:${info.clientIp}`
            const now = clock.currentTimeMillisUnsafe()
            const held = limiter.holdsToken(bucket, 60, now)
              ? limiter.takeHeldUnsafe(bucket, settings.rateLimitPerIpPerMinute, 60, now)
              : undefined
            return held?._tag === "Admitted" ? httpEffect : Effect.andThen(perIpQuota(limiter, settings, info), httpEffect)
          })
        ),
        settings
      )
  })
)

const makeRequestFailures = Effect.gen(function*() {
  const settings = yield* Settings
  return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>) => guarded(httpEffect, settings)
})

/** Renders request decoding failures as problems. */
export const layerRequestFailures = Layer.effect(RequestFailures, makeRequestFailures)
/** Renders request decoding failures in the previous generation's format. */
export const layerLegacyRequestFailures = Layer.effect(LegacyRequestFailures, makeRequestFailures)

// Headers worth replaying with a stored response; the rest are per-response.
const REPLAYED_HEADERS = ["content-type", "location"]
const MAX_KEY_LENGTH = 255

/** `Idempotency-Key` handling: claim, replay, conflict and in-flight answers. */
export const layerIdempotentWrites = Layer.effect(
  IdempotentWrites,
  Effect.gen(function*() {
    const store = yield* IdempotencyStore
    const settings = yield* Settings
    const context = yield* Effect.context<Settings>()
    return (httpEffect, { endpoint }) =>
      Effect.gen(function*() {
        const mode = Context.get(endpoint.annotations, Idempotency)
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers["idempotency-key"]
        if (mode === "none") return yield* httpEffect
        if (key === undefined || key === "") {
          if (mode === "required") return yield* new IdempotencyKeyRequired()
          return yield* httpEffect
        }
        if (key.length > MAX_KEY_LENGTH) {
          return yield* new MalformedRequest({ detail: `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters.` })
        }
        const principal = yield* CurrentPrincipal
        const body = yield* request.arrayBuffer
        const claimed = {
          storeId: principal.storeId,
          key,
          method: request.method,
          path: new URL(request.url, "http://localhost").pathname,
          fingerprint: canonicalFingerprint(new Uint8Array(body))
        }
        const claim = yield* store.claim(claimed)
        if (claim._tag === "Replay") {
          return HttpServerResponse.text(claim.response.body, {
            status: claim.response.status,
            headers: { ...claim.response.headers, "idempotency-replay": "true" }
          })
        }
        const response = yield* httpEffect.pipe(Effect.onError(() => store.release(claimed)))
        const stored: StoredResponse = {
          status: response.status,
          headers: Object.fromEntries(
            REPLAYED_HEADERS.flatMap((name) => {
              const value = response.headers[name]
              return value === undefined ? [] : [[name, value]]
            })
          ),
          body: responseBodyText(response)
        }
        yield* store.complete(claimed, stored)
        return response
      }).pipe((effect) => catchAllAsApiFailure(effect, settings.maxBodyBytes), Effect.catch((failure: ApiFailure) => respondWithFailure(failure)), Effect.provide(context))
  })
)
