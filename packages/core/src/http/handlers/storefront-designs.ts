import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Designs } from "../../services/commerce/designs.js"
import { Customisers } from "../../services/pricing/customisers.js"
import { RateLimiter } from "../../services/requests/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { SigncraftApi } from "../api/index.js"
import { admitStorefrontWrite } from "./storefront-quota.js"

/** `POST /storefront/v1/customisers/{customiser_id}/designs`. */
export const StorefrontDesignsHandlers = HttpApiBuilder.group(SigncraftApi, "storefrontDesigns", (handlers) =>
  Effect.gen(function*() {
    const designs = yield* Designs
    const customisers = yield* Customisers
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    return handlers.handle("finishDesign", Effect.fn("storefrontDesigns.finishDesign")(function*({ params, payload }) {
        const customiser = yield* customisers.findAnywhere(params.customiser_id)
        yield* admitStorefrontWrite(customiser.storeId).pipe(
          Effect.provideService(RateLimiter, limiter),
          Effect.provideService(Settings, settings)
        )
        const { product, externalId } = yield* designs.finish(params.customiser_id, payload)
        return { product_id: product.id, external_id: externalId }
      }))
  }))
