import { Effect } from "effect"
import { RateLimited } from "../../domain/errors.js"
import { RateLimiter } from "../../services/requests/rate-limiter.js"
import { CurrentRequest } from "../request-info.js"

/** The per-IP backstop every public page and endpoint shares with the API. */
export const admitClientIp = Effect.gen(function*() {
  const info = yield* CurrentRequest
  const admission = yield* (yield* RateLimiter).admitIp(info.clientIp)
  if (admission._tag === "Limited") return yield* new RateLimited({ retryAfter: admission.retryAfterSeconds })
})
