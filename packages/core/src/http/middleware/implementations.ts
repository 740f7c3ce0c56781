import { Context, Effect, Layer, Redacted } from "effect"
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
import { grantAllows, grantedScopes } from "../../domain/scopes.js"
import { Credentials } from "../../services/credentials.js"
import { DeprecatedUsage } from "../../services/deprecated-usage.js"
import { IdempotencyStore, type StoredResponse } from "../../services/idempotency.js"
import { RateLimiter } from "../../services/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { acceptedScopes, DeprecatedOperation, Idempotency, RequiredScope } from "../annotations.js"
import { CurrentRequest } from "../request-info.js"
import { respondWithFailure } from "../respond.js"
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
import { catchAllAsApiFailure } from "./request-failures.js"

const DIAGNOSTIC_HEADER = "x-signcraft-rate-limit-test"

/** Serves the inner effect, answering every failure it raises as the request's generation expects. */
const guarded = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>, maxBodyBytes: number) =>
  catchAllAsApiFailure(effect, maxBodyBytes).pipe(Effect.catch(respondWithFailure))

const perIpQuota = Effect.gen(function*() {
  const settings = yield* Settings
  const limiter = yield* RateLimiter
  const info = yield* CurrentRequest
  const admission = yield* limiter.take(`ip:${info.clientIp}`, settings.rateLimitPerIpPerMinute, 60)
  if (admission._tag === "Limited") return yield* new RateLimited({ retryAfter: admission.retryAfterSeconds })
})

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

const makeApiKeyAuth = Effect.gen(function*() {
      const settings = yield* Settings
      const credentials = yield* Credentials
      const limiter = yield* RateLimiter
      const usage = yield* DeprecatedUsage
      const context = yield* Effect.context<Settings | RateLimiter>()

      const middleware: ApiKeyMiddleware = {
        apiKey: (httpEffect, { credential, endpoint }) =>
          Effect.gen(function*() {
            yield* perIpQuota
            const presented = Redacted.value(credential)
            if (presented === "") return yield* new MissingCredential({ kind: "api_key" })
            const principal = yield* credentials.verify(presented)
            const request = yield* HttpServerRequest.HttpServerRequest
            const diagnostic = settings.environment !== "production" && principal.mode === "test" &&
              request.headers[DIAGNOSTIC_HEADER]?.toLowerCase() === "true"
            const admission = diagnostic
              ? yield* limiter.cooldown(`diagnostic:${principal.keyId}`, 5)
              : yield* limiter.take(`key:${principal.keyId}`, settings.rateLimitPerKeyPerMinute, 60)
            if (admission._tag === "Limited") {
              return yield* new RateLimited({ retryAfter: admission.retryAfterSeconds })
            }
            const accepted = acceptedScopes(Context.get(endpoint.annotations, RequiredScope))
            if (accepted.length > 0 && !accepted.some((scope) => grantAllows(principal.grant, scope))) {
              return yield* new InsufficientScope({ required: accepted, granted: grantedScopes(principal.grant) })
            }
            const operation = Context.get(endpoint.annotations, DeprecatedOperation)
            if (operation !== undefined) yield* usage.record(principal.keyId, operation)
            return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
          }).pipe((effect) => guarded(effect, settings.maxBodyBytes), Effect.provide(context))
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
    const context = yield* Effect.context<Settings | RateLimiter>()
    const expected = settings.operatorToken === undefined ? undefined : digest(Redacted.value(settings.operatorToken))
    return {
      operatorToken: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          if (expected === undefined) return yield* new NotFound({ resource: "route" })
          const presented = Redacted.value(credential)
          if (presented === "") return yield* new MissingCredential({ kind: "operator_token" })
          if (!timingSafeEqual(digest(presented), expected)) {
            return yield* new InvalidCredential({ kind: "operator_token", reason: "unknown" })
          }
          return yield* httpEffect
        }).pipe((effect) => guarded(effect, settings.maxBodyBytes), Effect.provide(context))
    }
  })
)

/** Public endpoints: the per-IP quota and problem rendering. */
export const layerPublicAccess = Layer.effect(
  PublicAccess,
  Effect.gen(function*() {
    const settings = yield* Settings
    const context = yield* Effect.context<Settings | RateLimiter>()
    return (httpEffect) =>
      Effect.andThen(perIpQuota, httpEffect).pipe(
        (effect) => guarded(effect, settings.maxBodyBytes),
        Effect.provide(context)
      )
  })
)

const makeRequestFailures = Effect.gen(function*() {
  const settings = yield* Settings
  const context = yield* Effect.context<Settings>()
  return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>) =>
    guarded(httpEffect, settings.maxBodyBytes).pipe(Effect.provide(context))
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
