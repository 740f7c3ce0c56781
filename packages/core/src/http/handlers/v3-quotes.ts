import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatTimestampV3 } from "../../domain/timestamp.js"
import { type QuoteRecord, Quotes } from "../../services/quotes.js"
import { CursorKey } from "../../services/cursor-key.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { orRespond } from "../respond.js"
import { idPage } from "./id-page.js"

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

/** `GET /api/v3/quotes`. */
export const V3QuotesHandlers = HttpApiBuilder.group(SigncraftApi, "v3Quotes", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    const cursorKey = (yield* CursorKey).secret
    return handlers.handle("list", ({ query }) =>
      Effect.gen(function*() {
        const { storeId } = yield* CurrentPrincipal
        return yield* idPage(
          query,
          { collection: "quotes", storeId, filters: {} },
          cursorKey,
          ({ limit, cursorId }) => quotes.list(storeId, { limit, afterId: cursorId }),
          quoteV3Of
        )
      }).pipe(orRespond))
  }))
