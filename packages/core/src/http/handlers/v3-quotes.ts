import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter } from "../../domain/errors.js"
import { formatTimestampV3 } from "../../domain/pricing/timestamp.js"
import { type QuoteRecord, Quotes } from "../../services/quotes.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { cutPage, parsePageRequest } from "../paging.js"
import { orRespond } from "../respond.js"
import { collectionEnvelope } from "./envelope.js"

/** A quote as v3 shows it. */
export const quoteV3Of = (record: QuoteRecord) => ({
  object: "quote" as const,
  id: record.id,
  customiser_id: record.customiser_id,
  form_id: record.form_id,
  submission_number: record.submission_number,
  responses: record.responses,
  created_at: formatTimestampV3(record.created_at)
})

const LIST_FILTERS = {}

/** `GET /api/v3/quotes`. */
export const V3QuotesHandlers = HttpApiBuilder.group(SigncraftApi, "v3Quotes", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    return handlers.handle("list", ({ query }) =>
      Effect.gen(function*() {
        const request = parsePageRequest(query, LIST_FILTERS)
        if (!request.ok) return yield* new InvalidParameter({ errors: request.errors })
        const { page } = request
        const principal = yield* CurrentPrincipal
        const rows = yield* quotes.list(principal.storeId, {
          limit: page.limit + 1,
          afterId: page.after === undefined ? undefined : Number(page.after)
        })
        const { items, nextCursor } = cutPage(rows, page, (row) => String(row.id), LIST_FILTERS)
        return yield* collectionEnvelope(items.map(quoteV3Of), nextCursor)
      }).pipe(orRespond))
  }))
