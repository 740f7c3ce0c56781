import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { customiserPricingView } from "../../presenters/dashboard/pricing.js"
import { Customisers } from "../../services/pricing/customisers.js"
import { htmlPage } from "./respond.js"
import { openStore } from "./session.js"
import { pricingView } from "./views/pricing.js"

/** How many customisers the pricing page shows. */
const CUSTOMISERS_SHOWN = 100

/** GET /dashboard/stores/:store_id/pricing: each customiser's pricing as readable tables. */
export const showPricing = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "pricing")
    const customisers = yield* Customisers
    const listed = yield* customisers.list(store.id, { limit: CUSTOMISERS_SHOWN, afterId: undefined })
    const views = yield* Effect.forEach(listed, (customiser) =>
      Effect.map(customisers.readPricing(store.id, customiser.id), (pricing) => customiserPricingView(customiser, pricing.content, store.currency)))
    return htmlPage(pricingView(paths, viewer, context, store.currency, views))
  })
