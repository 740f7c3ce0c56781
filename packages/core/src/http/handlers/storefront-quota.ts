import { Effect } from "effect"
import { RateLimited } from "../../domain/errors.js"
import { RateLimiter } from "../../services/requests/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { CurrentRequest } from "../request-info.js"

/**
 * Spends one of the client address's storefront writes for this minute
 * (`storefrontWritesPerAddressPerMinute`) and one of the Store's (`storefrontWritesPerStorePerMinute`),
 * or fails with 429. Each design or submission is stored and fans out to the Store's webhooks: the
 * per-Store quota caps what any Store's storefront can cost when many addresses flood it, the
 * per-address one what a single client can write, far below the general per-address quota.
 */
export const admitStorefrontWrite = (storeId: number) =>
  Effect.gen(function*() {
    const { storefrontWritesPerStorePerMinute, storefrontWritesPerAddressPerMinute } = yield* Settings
    const limiter = yield* RateLimiter
    const { clientIp } = yield* CurrentRequest
    for (const [bucket, limit] of [
      [`storefront:address:${clientIp}`, storefrontWritesPerAddressPerMinute],
      [`storefront:store:${storeId}`, storefrontWritesPerStorePerMinute]
    ] as const) {
      const admission = yield* limiter.take(bucket, limit, 60)
      if (admission._tag === "Limited") return yield* new RateLimited({ retryAfter: admission.retryAfterSeconds })
    }
  })
