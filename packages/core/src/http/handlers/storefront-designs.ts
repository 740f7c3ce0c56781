import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Designs } from "../../services/designs.js"
import { SigncraftApi } from "../api/index.js"

/** `POST /storefront/v1/customisers/{customiser_id}/designs`. */
export const StorefrontDesignsHandlers = HttpApiBuilder.group(SigncraftApi, "storefrontDesigns", (handlers) =>
  Effect.gen(function*() {
    const designs = yield* Designs
    return handlers.handle("finishDesign", ({ params, payload }) =>
      designs.finish(params.customiser_id, payload).pipe(
        Effect.map(({ product, externalId }) => ({ product_id: product.id, external_id: externalId }))
      ))
  }))
