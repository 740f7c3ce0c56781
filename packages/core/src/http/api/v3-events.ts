import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { EVENT_DELIVERY_STATUSES } from "../../domain/webhooks/delivery-log.js"
import { EventV3 } from "../../presenters/webhook-schemas.js"
import { TEST_EVENT_TOPIC } from "../../domain/webhooks/test-event.js"
import { WEBHOOK_TOPICS } from "../../domain/webhooks/topics.js"
import { RequiredScope } from "../annotations.js"
import { ApiKeyAuth, RequestFailures } from "../middleware/definitions.js"
import { EventIdParam } from "../resource-id.js"
import { CollectionEnvelope, Envelope } from "../wire.js"
import { IsoTimestamp } from "./iso-timestamp.js"
import { refuseUnknownMembers } from "./parse-options.js"

/** The event types the `type` filter takes. */
const EventTypeFilter = Schema.Literals([...WEBHOOK_TOPICS, TEST_EVENT_TOPIC])

/** v3 events: the outbox, readable to catch up after an outage. */
export class V3EventsApi extends HttpApiGroup.make("v3Events")
  .add(
    HttpApiEndpoint.get("listEvents", "/events", {
      query: {
        limit: Schema.optionalKey(Schema.String),
        cursor: Schema.optionalKey(Schema.String),
        type: Schema.optionalKey(EventTypeFilter),
        created_after: Schema.optionalKey(IsoTimestamp),
        created_before: Schema.optionalKey(IsoTimestamp),
        delivery_status: Schema.optionalKey(Schema.Literals(EVENT_DELIVERY_STATUSES))
      },
      success: CollectionEnvelope(EventV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotateMerge(OpenApi.annotations({
        summary: "The Store's events, newest first",
        description:
          "Paged with limit and cursor; filters `type` (a topic), `created_after` and `created_before` (ISO 8601, exclusive) and `delivery_status`. Events are kept RETENTION_DAYS (30 by default). To send a window of missed events again, use POST /api/v3/webhook-subscriptions/{webhook_id}/recover."
      })),
    HttpApiEndpoint.get("getEvent", "/events/:event_id", {
      params: { event_id: EventIdParam },
      success: Envelope(EventV3)
    })
      .annotate(RequiredScope, "webhooks:read")
      .annotate(OpenApi.Summary, "One event, by the x-webhook-id of its deliveries")
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Events")
{}
