import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Customisers } from "../../services/pricing/customisers.js"
import { Quotes } from "../../services/commerce/quotes.js"
import { RateLimiter } from "../../services/requests/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { SigncraftApi } from "../api/index.js"
import { admitStorefrontWrite } from "./storefront-quota.js"

/** `POST /storefront/v1/customisers/{customiser_id}/form-submissions`. */
export const StorefrontFormsHandlers = HttpApiBuilder.group(SigncraftApi, "storefrontForms", (handlers) =>
  Effect.gen(function*() {
    const customisers = yield* Customisers
    const quotes = yield* Quotes
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    return handlers.handle("submit", Effect.fn("storefrontForms.submit")(function*({ params, payload }) {
        const id = params.customiser_id
        const customiser = yield* customisers.findAnywhere(id)
        yield* admitStorefrontWrite(customiser.storeId).pipe(
          Effect.provideService(RateLimiter, limiter),
          Effect.provideService(Settings, settings)
        )
        const quote = yield* quotes.submit(customiser, { formId: payload.form_id, responses: payload.responses })
        return { quote_id: quote.id }
      }))
  }))
