import { Effect } from "effect"
import { RateLimited } from "../../domain/errors.js"
import { RateLimiter } from "../../services/rate-limiter.js"
import { Settings } from "../../services/settings.js"

/**
 * Spends one of the Store's storefront writes for this minute (`storefrontWritesPerStorePerMinute`,
 * 600 by default), or fails with 429. The per-address quota alone lets many addresses flood one
 * Store, and each design or submission is stored and fans out to its webhooks: this caps what any
 * Store's storefront can cost.
 */
export const admitStorefrontWrite = (storeId: number) =>
  Effect.gen(function*() {
    const { storefrontWritesPerStorePerMinute } = yield* Settings
    const admission = yield* (yield* RateLimiter).take(`storefront:store:${storeId}`, storefrontWritesPerStorePerMinute, 60)
    if (admission._tag === "Limited") return yield* new RateLimited({ retryAfter: admission.retryAfterSeconds })
  })
