import { Clock, Context, Effect, Layer, Redacted } from "effect"
import type { Types } from "effect"
import { type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import {
  type ApiFailure,
  IdempotencyKeyRequired,
  isApiFailure,
  InsufficientScope,
  MalformedRequest,
  MissingCredential,
  RateLimited
} from "../../domain/errors.js"
import { grantedScopes } from "../../domain/credentials/scopes.js"
import { type ApiKeyPrincipal, Credentials } from "../../services/credentials/credentials.js"
import { DeprecatedUsage } from "../../services/requests/deprecated-usage.js"
import { type Completion, HeldKey, IdempotencyStore, keptForReplay, type StoredResponse } from "../../services/requests/idempotency.js"
import { RateLimiter } from "../../services/requests/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { AnswerCarriesSecret, AnswerHoldsNoSecret, Idempotency, IDEMPOTENCY_KEY_MAX_LENGTH, KeyClaimedByHandler } from "../annotations.js"
import { describeFailure, type FailureWithStatus } from "../../presenters/failure-table.js"
import { CurrentRequest, type RequestInfo } from "../request-info.js"
import { renderFailure } from "../respond.js"
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
import { makeOperatorTokenCheck, perIpQuota } from "./operator-token.js"
import { allowsAny, DIAGNOSTIC_HEADER, type EndpointRules, endpointRulesOf, makeHeldKeyChecks } from "./held-key-checks.js"
import { bodyReadFailure, isRequestInputError, requestInputFailure } from "./request-failures.js"

/** A response, or a failure HttpApi encodes with the endpoint's declared error schemas. */
type Served<R, E extends ApiFailure = ApiFailure> = Effect.Effect<HttpServerResponse.HttpServerResponse, E | Types.unhandled, R>

/** What the API-key middleware fails with: the statuses it declares. */
type KeyFailure = FailureWithStatus<401 | 403 | 429>

/** The shape of an API-key security middleware: it fails with the failures it declares. */
type ApiKeyMiddleware = {
  readonly apiKey: (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
    options: {
      readonly credential: Redacted.Redacted<string>
      readonly endpoint: HttpApiEndpoint.Top
      readonly group: HttpApiGroup.Top
    }
  ) => Served<HttpRouter.Provided, KeyFailure>
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
    const read = endpointRulesOf(endpoint)
    rules.set(endpoint, read)
    return read
  }

  const { isDiagnostic, announceQuota, heldAdmission } = makeHeldKeyChecks(settings, credentials, limiter)

  // The checks after the key is known: its quota (or the diagnostic bucket), the
  // endpoint's scope, deprecated-usage counting, then the endpoint itself.
  const admit = (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
    principal: ApiKeyPrincipal,
    request: HttpServerRequest.HttpServerRequest,
    endpointRules: EndpointRules,
    info: RequestInfo,
    clock: Clock.Clock
  ) => {
    const admission = isDiagnostic(principal, request.headers[DIAGNOSTIC_HEADER])
      ? limiter.cooldown(`diagnostic:${principal.keyId}`, 5)
      : limiter.take(`key:${principal.keyId}`, settings.rateLimitPerKeyPerMinute, 60)
    return Effect.flatMap(admission, (admitted): Served<HttpRouter.Provided, KeyFailure> => {
      announceQuota(info, principal, clock.currentTimeMillisUnsafe())
      info.storeId = principal.storeId
      if (admitted._tag === "Limited") return Effect.fail(new RateLimited({ retryAfter: admitted.retryAfterSeconds }))
      const { accepted, operation } = endpointRules
      if (!allowsAny(principal, accepted)) {
        return Effect.fail(new InsufficientScope({ required: accepted, granted: grantedScopes(principal.grant) }))
      }
      const served = Effect.provideService(httpEffect, CurrentPrincipal, principal)
      return operation === undefined ? served : Effect.andThen(usage.record(principal.keyId, operation), served)
    })
  }

  // Written as a chain rather than a generator: this runs on nearly every request.
  const checked = (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
    info: RequestInfo,
    presented: string,
    request: HttpServerRequest.HttpServerRequest,
    endpointRules: EndpointRules,
    clock: Clock.Clock
  ): Served<HttpRouter.Provided, KeyFailure> =>
    Effect.flatMap(perIpQuota(limiter, info), () => {
      if (presented === "") return Effect.fail(new MissingCredential({ kind: "api_key" }))
      return Effect.flatMap(
        credentials.verify(presented),
        (principal) => admit(httpEffect, principal, request, endpointRules, info, clock)
      )
    })

  const middleware: ApiKeyMiddleware = {
    apiKey: (httpEffect, { credential, endpoint }) =>
      Clock.clockWith((clock) =>
        Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
          const info = Context.get(context, CurrentRequest)
          const request = Context.get(context, HttpServerRequest.HttpServerRequest)
          const presented = Redacted.value(credential)
          const endpointRules = rulesOf(endpoint)
          const principal = heldAdmission(info, presented, request.headers[DIAGNOSTIC_HEADER], endpointRules, clock.currentTimeMillisUnsafe())
          return principal === undefined
            ? checked(httpEffect, info, presented, request, endpointRules, clock)
            : Effect.provideService(httpEffect, CurrentPrincipal, principal)
        })
      )
  }
  return middleware
})

/** The v3 API-key middleware. */
export const layerApiKeyAuth = Layer.effect(ApiKeyAuth, makeApiKeyAuth)
/** The previous-generation API-key middleware (same checks, legacy error format). */
export const layerLegacyApiKeyAuth = Layer.effect(LegacyApiKeyAuth, makeApiKeyAuth)

/** The operator API's bearer check (`./operator-token.ts`). */
export const layerOperatorAuth = Layer.effect(
  OperatorAuth,
  Effect.gen(function*() {
    const check = yield* makeOperatorTokenCheck
    return {
      operatorToken: (httpEffect, { credential }) => Effect.andThen(check(Redacted.value(credential)), httpEffect)
    }
  })
)

/** Public endpoints: the per-IP quota. */
export const layerPublicAccess = Layer.effect(
  PublicAccess,
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    return (httpEffect) =>
      Clock.clockWith((clock) =>
        Effect.flatMap(Effect.service(CurrentRequest), (info) => {
          // A token this process holds admits the request without building the quota effect.
          const held = limiter.admitIpHeldUnsafe(info.clientIp, clock.currentTimeMillisUnsafe())
          return held?._tag === "Admitted" ? httpEffect : Effect.andThen(perIpQuota(limiter, info), httpEffect)
        })
      )
  })
)

// What decoding the request raised becomes the failure a client is told about; the handler's
// own failures pass through untouched, and defects are left to the router (logged, then 500).
// Wrapping every endpoint, idempotent replays included, it is also where an endpoint whose answer
// carries a secret marks the answer uncacheable: the router middleware adds the header to
// whatever goes out.
const makeRequestFailures = Effect.gen(function*() {
  const settings = yield* Settings
  return (
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>,
    { endpoint }: { readonly endpoint: HttpApiEndpoint.Top }
  ): Served<never, FailureWithStatus<400 | 404 | 413 | 422 | 500>> => {
    const answered = Effect.catch(
      httpEffect,
      (error): Served<never, FailureWithStatus<400 | 404 | 413 | 422 | 500>> =>
        Effect.fail(isRequestInputError(error) ? requestInputFailure(error, settings.maxBodyBytes) : error)
    )
    if (!Context.get(endpoint.annotations, AnswerCarriesSecret)) return answered
    return Effect.flatMap(Effect.service(CurrentRequest), (info) => {
      info.responseHeaders.set("cache-control", "no-store")
      return answered
    })
  }
})

/** Turns request decoding failures into failures of the v3 format. */
export const layerRequestFailures = Layer.effect(RequestFailures, makeRequestFailures)
/** Turns request decoding failures into failures of the previous generation's format. */
export const layerLegacyRequestFailures = Layer.effect(LegacyRequestFailures, makeRequestFailures)

// Headers worth replaying with a stored response; the rest are per-response.
const REPLAYED_HEADERS = ["content-type", "location"]

/** `Idempotency-Key` handling: claim, replay, conflict and in-flight answers. */
export const layerIdempotentWrites = Layer.effect(
  IdempotentWrites,
  Effect.gen(function*() {
    const store = yield* IdempotencyStore
    const settings = yield* Settings
    const answerFailure = (failure: ApiFailure) =>
      Effect.map(Effect.service(CurrentRequest), (info) => {
        const described = describeFailure(failure)
        if (described.status >= 500) info.faults.push(failure)
        return renderFailure(described, info)
      })
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
        if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
          return yield* new MalformedRequest({ detail: `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.` })
        }
        const principal = yield* CurrentPrincipal
        const body = yield* Effect.mapError(request.arrayBuffer, (error) => bodyReadFailure(error, settings.maxBodyBytes))
        const claimed = {
          storeId: principal.storeId,
          key,
          method: request.method,
          path: new URL(request.url, "http://localhost").pathname,
          fingerprint: canonicalFingerprint(new Uint8Array(body), (yield* CurrentRequest).parsedBody),
          plainAnswer: Context.get(endpoint.annotations, AnswerHoldsNoSecret)
        }
        const replay = (stored: StoredResponse) =>
          HttpServerResponse.text(stored.body, { status: stored.status, headers: { ...stored.headers, "idempotency-replay": "true" } })
        // Claimed here, before the handler runs; or by the handler's first statement (HeldKey), which
        // saves a statement where the handler writes nothing before it.
        const claimedByHandler = Context.get(endpoint.annotations, KeyClaimedByHandler)
        const now = yield* Clock.currentTimeMillis
        if (!claimedByHandler) {
          const claim = yield* store.claim(claimed)
          if (claim._tag === "Replay") return replay(claim.response)
        }
        // Where the key stands; set by the handler's first statement where it claims the key.
        const keyClaim: { state: "claimed" | "unclaimed" | "taken" } = { state: claimedByHandler ? "unclaimed" : "claimed" }
        // A write the handler deferred (HeldKey) runs below, with the answer.
        let deferred: ((answer: Completion) => Effect.Effect<void>) | undefined
        const held = HeldKey.of({
          unclaimed: () => keyClaim.state === "unclaimed" ? { request: claimed, now } : undefined,
          claimed: (won) => {
            if (keyClaim.state === "unclaimed") keyClaim.state = won ? "claimed" : "taken"
          },
          deferWrite: (write) =>
            Effect.suspend(() => {
              if (deferred !== undefined) return Effect.die(new Error("a request defers at most one write"))
              if (keyClaim.state !== "claimed") return Effect.die(new Error("a write is deferred only under a claimed key"))
              deferred = write
              return Effect.void
            })
        })
        // A failure of the handler is answered, and kept for replay like any answer; anything
        // else (a body that does not decode, a defect) releases the key, and a deferred write is
        // not made.
        const response = yield* httpEffect.pipe(
          Effect.provideService(HeldKey, held),
          Effect.catch((error) => isApiFailure(error) ? answerFailure(error) : Effect.fail(error)),
          Effect.onError(() => keyClaim.state === "claimed" ? store.release(claimed) : Effect.void)
        )
        // Another request holds the key: the answer is that request's, whatever this handler made
        // of the request (it wrote nothing).
        if (keyClaim.state === "taken") return replay(yield* store.settle(claimed))
        // Answered before its first statement claimed the key: nothing was written, nothing is kept.
        if (keyClaim.state === "unclaimed") return response
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
        const write = deferred
        // An answer not kept (a server error) releases the key, so a deferred write is not made
        // either: the retry the release allows makes it once.
        if (write === undefined || !keptForReplay(stored)) yield* store.complete(claimed, stored)
        else yield* Effect.onError(write({ request: claimed, response: stored }), () => store.release(claimed))
        return response
      })
  })
)
