import { Effect, Schema } from "effect"
import { QuoteV3 } from "../../domain/quotes/view.js"
import { quoteV3Of } from "../../presenters/quotes.js"
import { Quotes } from "../../services/commerce/quotes.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"
import { cutRows, PageInput, pageOf } from "./inputs.js"

/** `list_quotes`: form submissions as quotes, oldest first; deduplicate on `id`. */
export const listQuotesTool = defineTool({
  name: "list_quotes",
  description: "Lists the Store's quotes (form submissions), oldest first. Each has a stable id to deduplicate on.",
  scopes: ["quotes:read"],
  input: Schema.Struct(PageInput),
  output: Schema.Struct({ quotes: Schema.Array(QuoteV3), has_more: Schema.Boolean }),
  hints: READ_ONLY,
  run: Effect.fn("tool.list_quotes")(function*(input, principal) {
      const page = pageOf(input)
      const rows = yield* (yield* Quotes).list(principal.storeId, { limit: page.limit + 1, afterId: page.afterId })
      const { items, has_more } = cutRows(rows, page.limit)
      return { quotes: items.map(quoteV3Of), has_more }
    })
})
