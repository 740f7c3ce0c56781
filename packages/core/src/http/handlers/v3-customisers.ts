import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { pricingReadV3 } from "../../domain/pricing/content.js"
import { customiserV3Of } from "../../domain/pricing/customiser.js"
import { decidePricingPatchV3, decidePricingPutV3 } from "../../domain/pricing/writes.js"
import { Customisers } from "../../services/pricing/customisers.js"
import type { Settings } from "../../services/settings.js"
import { CursorKey } from "../../services/credentials/cursor-key.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { envelope, envelopeText } from "./envelope.js"
import { ifNoneMatchHits, strongEtagOf } from "../../domain/etag.js"
import { pricingReadHeaders } from "../../presenters/pricing-read.js"
import { PricingCache } from "../../services/pricing/cache.js"
import { idPage } from "./id-page.js"
import { currentPricingOf, headerOf, outcomeToEffect, pricingDecision } from "../../services/pricing/decisions.js"

/** v3 customisers and pricing: reads, PUT, merge PATCH and the dry-run validation. */
export const V3CustomisersHandlers = HttpApiBuilder.group(SigncraftApi, "v3Customisers", (handlers) =>
  Effect.gen(function*() {
    const customisers = yield* Customisers
    const pricingCache = yield* PricingCache
    const cursorKey = (yield* CursorKey).secret
    const storeId = Effect.gen(function*() {
      return (yield* CurrentPrincipal).storeId
    })
    const pricingOf = (stored: Parameters<typeof headerOf>[0]) => pricingReadV3(stored.content, headerOf(stored))
    // Pricing documents go out as stored, unencoded: a stored enum value newer than this code must
    // be shown, not fail the success schema, and a large document skips a second walk.
    const sendPricing = <A>(body: Effect.Effect<A, never, Settings>) =>
      Effect.map(body, (value) => HttpServerResponse.jsonUnsafe(value))

    // A read that finds no current entry: the document as read, kept for the next read unless a
    // write lands meanwhile (the epoch is taken before the database is read).
    const readPricingToCache = (store: number, id: number) =>
      Effect.suspend(() => {
        const epoch = pricingCache.epoch()
        return Effect.map(customisers.readPricing(store, id), (stored) => {
          const json = JSON.stringify(pricingOf(stored))
          const entry = { storeId: store, json, etag: strongEtagOf(json) }
          pricingCache.put(id, entry, epoch)
          return entry
        })
      })

    return handlers
      .handle("list", Effect.fn("v3Customisers.list")(function*({ query }) {
          const store = yield* storeId
          // No filters yet; cursors are bound to this (empty) set all the same.
          return yield* idPage(
            query,
            { collection: "customisers", storeId: store, filters: {} },
            cursorKey,
            ({ limit, cursorId }) => customisers.list(store, { limit, afterId: cursorId }),
            customiserV3Of
          )
        }))
      .handle("get", Effect.fn("v3Customisers.get")(function*({ params }) {
          const id = params.customiser_id
          return yield* envelope(customiserV3Of(yield* customisers.find(yield* storeId, id)))
        }))
      .handle("getPricing", Effect.fn("v3Customisers.getPricing")(function*({ params, headers }) {
          const id = params.customiser_id
          const store = yield* storeId
          const current = pricingCache.get(id, store) ?? (yield* readPricingToCache(store, id))
          const validators = pricingReadHeaders(current.etag)
          if (ifNoneMatchHits(headers["if-none-match"], current.etag)) {
            return HttpServerResponse.empty({ status: 304, headers: validators })
          }
          const shell = yield* envelope(null)
          return HttpServerResponse.text(envelopeText(current.json, shell), { contentType: "application/json", headers: validators })
        }))
      .handle("putPricing", Effect.fn("v3Customisers.putPricing")(function*({ params, payload }) {
          const id = params.customiser_id
          const saved = yield* customisers.writePricing(yield* storeId, id, pricingDecision(decidePricingPutV3, payload))
          return yield* sendPricing(envelope(pricingOf(saved)))
        }))
      .handle("patchPricing", Effect.fn("v3Customisers.patchPricing")(function*({ params, payload }) {
          const id = params.customiser_id
          const saved = yield* customisers.writePricing(yield* storeId, id, pricingDecision(decidePricingPatchV3, payload))
          return yield* sendPricing(envelope(pricingOf(saved)))
        }))
      .handle("validatePricing", Effect.fn("v3Customisers.validatePricing")(function*({ params, payload }) {
          const id = params.customiser_id
          const stored = yield* customisers.readPricing(yield* storeId, id)
          const accepted = yield* outcomeToEffect(decidePricingPutV3(payload, currentPricingOf(stored)))
          return yield* sendPricing(envelope({
            object: "pricing_validation" as const,
            valid: true as const,
            pricing: pricingReadV3(accepted.content, headerOf(stored))
          }))
        }))
  }))
