import { Clock, Effect, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { parseAnalyticsQuery } from "../../domain/analytics/window.js"
import { InvalidParameter } from "../../domain/errors.js"
import { Analytics } from "../../services/commerce/analytics.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { envelope } from "./envelope.js"

/** `GET /api/v3/analytics/summary`. */
export const V3AnalyticsHandlers = HttpApiBuilder.group(SigncraftApi, "v3Analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    return handlers.handle("summary", Effect.fn("v3Analytics.summary")(function*({ query }) {
        const { storeId } = yield* CurrentPrincipal
        const now = yield* Clock.currentTimeMillis
        const window = parseAnalyticsQuery(query, new Date(now))
        if (Result.isFailure(window)) return yield* new InvalidParameter({ errors: window.failure })
        return yield* envelope(yield* analytics.summary(storeId, window.success))
      }))
  }))
