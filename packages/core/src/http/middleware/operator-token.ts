import { Effect, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { InvalidCredential, MissingCredential, NotFound, RateLimited } from "../../domain/errors.js"
import { RateLimiter } from "../../services/requests/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { CurrentRequest, type RequestInfo } from "../request-info.js"

/** Takes one request from the client address's quota, or fails with 429. */
export const perIpQuota = (limiter: RateLimiter["Service"], info: RequestInfo) =>
  Effect.flatMap(
    limiter.admitIp(info.clientIp),
    (admission) =>
      admission._tag === "Limited" ? Effect.fail(new RateLimited({ retryAfter: admission.retryAfterSeconds })) : Effect.void
  )

const digest = (value: string) => createHash("sha256").update(value).digest()

/**
 * A deployment token's check (the operator token, the metrics token): 404 when no token is set
 * (nothing behind it is served), 401 for a missing or wrong one. A refused token spends one of
 * the client's per-IP requests, so guessing the token is held to the per-IP quota; once that is
 * spent the answer is 429, not another verdict on a guess.
 */
export const makeBearerTokenCheck = (token: Redacted.Redacted<string> | undefined, kind: "operator_token" | "metrics_token") =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const expected = token === undefined ? undefined : digest(Redacted.value(token))
    const refuse = (failure: MissingCredential | InvalidCredential) =>
      Effect.flatMap(Effect.service(CurrentRequest), (info) => Effect.andThen(perIpQuota(limiter, info), Effect.fail(failure)))
    type Refusal = NotFound | MissingCredential | InvalidCredential | RateLimited
    return (presented: string): Effect.Effect<void, Refusal> =>
      Effect.suspend((): Effect.Effect<void, Refusal> => {
        if (expected === undefined) return Effect.fail(new NotFound({ resource: "route" }))
        if (presented === "") return refuse(new MissingCredential({ kind }))
        if (!timingSafeEqual(digest(presented), expected)) return refuse(new InvalidCredential({ kind, reason: "unknown" }))
        return Effect.void
      })
  })

/** The `OPERATOR_TOKEN` check, for the operator API and its documentation ({@link makeBearerTokenCheck}). */
export const makeOperatorTokenCheck = Effect.flatMap(Settings, (settings) => makeBearerTokenCheck(settings.operatorToken, "operator_token"))

/** The bearer value of an `Authorization` header (scheme case-insensitive), or "" when there is none. */
export const bearerOf = (authorization: string | undefined): string =>
  authorization !== undefined && /^bearer /i.test(authorization) ? authorization.slice("bearer ".length).trim() : ""
