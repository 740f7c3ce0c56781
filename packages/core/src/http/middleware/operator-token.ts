import { Effect, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { InvalidCredential, MissingCredential, NotFound, RateLimited } from "../../domain/errors.js"
import { RateLimiter } from "../../services/rate-limiter.js"
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
 * The `OPERATOR_TOKEN` check, for the operator API and its documentation: 404 when no token is
 * set (nothing of the operator's is served), 401 for a missing or wrong one. A refused token
 * spends one of the client's per-IP requests, so guessing the token is held to the per-IP quota;
 * once that is spent the answer is 429, not another verdict on a guess.
 */
export const makeOperatorTokenCheck = Effect.gen(function*() {
  const settings = yield* Settings
  const limiter = yield* RateLimiter
  const expected = settings.operatorToken === undefined ? undefined : digest(Redacted.value(settings.operatorToken))
  const refuse = (failure: MissingCredential | InvalidCredential) =>
    Effect.flatMap(Effect.service(CurrentRequest), (info) => Effect.andThen(perIpQuota(limiter, info), Effect.fail(failure)))
  type Refusal = NotFound | MissingCredential | InvalidCredential | RateLimited
  return (presented: string): Effect.Effect<void, Refusal> =>
    Effect.suspend((): Effect.Effect<void, Refusal> => {
      if (expected === undefined) return Effect.fail(new NotFound({ resource: "route" }))
      if (presented === "") return refuse(new MissingCredential({ kind: "operator_token" }))
      if (!timingSafeEqual(digest(presented), expected)) {
        return refuse(new InvalidCredential({ kind: "operator_token", reason: "unknown" }))
      }
      return Effect.void
    })
})
