import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Customisers } from "../../services/customisers.js"
import { Quotes } from "../../services/quotes.js"
import { SigncraftApi } from "../api/index.js"

/** `POST /storefront/v1/customisers/{customiser_id}/form-submissions`. */
export const StorefrontFormsHandlers = HttpApiBuilder.group(SigncraftApi, "storefrontForms", (handlers) =>
  Effect.gen(function*() {
    const customisers = yield* Customisers
    const quotes = yield* Quotes
    return handlers.handle("submit", ({ params, payload }) =>
      Effect.gen(function*() {
        const id = params.customiser_id
        const customiser = yield* customisers.findAnywhere(id)
        const quote = yield* quotes.submit(customiser, { formId: payload.form_id, responses: payload.responses })
        return { quote_id: quote.id }
      }))
  }))
