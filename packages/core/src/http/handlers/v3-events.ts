import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { eventV3Of } from "../../presenters/webhooks.js"
import { CursorKey } from "../../services/credentials/cursor-key.js"
import { WebhookEvents } from "../../services/webhooks/events.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { envelope } from "./envelope.js"
import { idPage } from "./id-page.js"

/** `GET /api/v3/events` and `GET /api/v3/events/{event_id}`. */
export const V3EventsHandlers = HttpApiBuilder.group(SigncraftApi, "v3Events", (handlers) =>
  Effect.gen(function*() {
    const events = yield* WebhookEvents
    const cursorKey = (yield* CursorKey).secret
    return handlers
      .handle("listEvents", Effect.fn("v3Events.listEvents")(function*({ query }) {
          const { storeId } = yield* CurrentPrincipal
          const filters = {
            type: query.type,
            created_after: query.created_after,
            created_before: query.created_before,
            delivery_status: query.delivery_status
          }
          // Newest first: the cursor's id is the last one seen, and the next page goes below it.
          return yield* idPage(
            query,
            { collection: "events", storeId, filters },
            cursorKey,
            ({ limit, cursorId }) =>
              events.list(storeId, {
                topic: query.type,
                createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after),
                createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before),
                deliveryStatus: query.delivery_status
              }, { limit, beforeId: cursorId }),
            eventV3Of
          )
        }))
      .handle("getEvent", Effect.fn("v3Events.getEvent")(function*({ params }) {
          const { storeId } = yield* CurrentPrincipal
          return yield* envelope(eventV3Of(yield* events.find(storeId, params.event_id)))
        }))
  }))
