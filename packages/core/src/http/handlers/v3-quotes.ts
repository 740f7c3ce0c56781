import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { quoteV3Of } from "../../presenters/quotes.js"
import { Quotes } from "../../services/commerce/quotes.js"
import { CursorKey } from "../../services/credentials/cursor-key.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { idPage } from "./id-page.js"

/** `GET /api/v3/quotes`. */
export const V3QuotesHandlers = HttpApiBuilder.group(SigncraftApi, "v3Quotes", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    const cursorKey = (yield* CursorKey).secret
    return handlers.handle("list", Effect.fn("v3Quotes.list")(function*({ query }) {
        const { storeId } = yield* CurrentPrincipal
        return yield* idPage(
          query,
          { collection: "quotes", storeId, filters: {} },
          cursorKey,
          ({ limit, cursorId }) => quotes.list(storeId, { limit, afterId: cursorId }),
          quoteV3Of
        )
      }))
  }))
