import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { pricingReadV2 } from "../../domain/pricing/content.js"
import { customiserV2Of } from "../../domain/pricing/customiser.js"
import { decidePricingPutV2 } from "../../domain/pricing/writes.js"
import { Customisers, type StoredPricing } from "../../services/pricing/customisers.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { headerOf, pricingDecision } from "../../services/pricing/decisions.js"

// The v2 list was never paged; it answers every customiser of the Store, as it always did.
const UNPAGED = 1_000_000

/** Previous generation: customiser reads and pricing GET/PUT in the v2 shape. */
export const V2CustomisersHandlers = HttpApiBuilder.group(SigncraftApi, "v2Customisers", (handlers) =>
  Effect.gen(function*() {
    const customisers = yield* Customisers
    const storeId = Effect.gen(function*() {
      return (yield* CurrentPrincipal).storeId
    })
    // Sent unencoded for the same reason as v3: stored values newer than this code are shown as they are.
    const sendPricing = (stored: StoredPricing) =>
      HttpServerResponse.jsonUnsafe({ pricing: pricingReadV2(stored.content, headerOf(stored), stored.legacySpellings) })

    return handlers
      .handle("list", Effect.fn("v2Customisers.list")(function*() {
          const rows = yield* customisers.list(yield* storeId, { limit: UNPAGED, afterId: undefined })
          return { customisers: rows.map(customiserV2Of) }
        }))
      .handle("get", Effect.fn("v2Customisers.get")(function*({ params }) {
          const id = params.customiser
          return { customiser: customiserV2Of(yield* customisers.find(yield* storeId, id)) }
        }))
      .handle("getPricing", Effect.fn("v2Customisers.getPricing")(function*({ params }) {
          const id = params.customiser
          return sendPricing(yield* customisers.readPricing(yield* storeId, id))
        }))
      .handle("putPricing", Effect.fn("v2Customisers.putPricing")(function*({ params, payload }) {
          const id = params.customiser
          return sendPricing(yield* customisers.writePricing(yield* storeId, id, pricingDecision(decidePricingPutV2, payload)))
        }))
  }))
