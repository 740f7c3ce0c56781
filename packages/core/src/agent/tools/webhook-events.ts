import { Effect, Schema } from "effect"
import { NotFound } from "../../domain/errors.js"
import { EVENT_DELIVERY_STATUSES } from "../../domain/webhooks/delivery-log.js"
import { TEST_EVENT_TOPIC } from "../../domain/webhooks/test-event.js"
import { WEBHOOK_TOPICS } from "../../domain/webhooks/topics.js"
import { eventIdOfWebhookId, WEBHOOK_ID_PATTERN } from "../../domain/webhooks/webhook-id.js"
import { EventV3, WebhookDeliveryV3 } from "../../presenters/webhook-schemas.js"
import { deliveryV3Of, eventV3Of } from "../../presenters/webhooks.js"
import { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import { WebhookEvents } from "../../services/webhooks/events.js"
import { defineTool } from "../tool.js"
import { cutRows, ResourceId } from "./inputs.js"

// Read tools only: sending events again (resend, recover, test) stays with people, through the
// API and the dashboard, since a replay reaches a third party's server.

const Limit = Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })))
const EventId = Schema.String.check(Schema.isPattern(WEBHOOK_ID_PATTERN, { expected: "an event id such as evt_42" }))
const Instant = Schema.String.check(
  Schema.makeFilter((value: string) => !Number.isNaN(Date.parse(value)), { expected: "an ISO 8601 timestamp such as 2026-03-01T12:00:00Z" })
)

/** What `list_events` answers. */
export const ListEventsOutput = Schema.Struct({ events: Schema.Array(EventV3), has_more: Schema.Boolean })

/** What `get_event` answers. */
export const GetEventOutput = EventV3

/** What `list_webhook_deliveries` answers. */
export const ListWebhookDeliveriesOutput = Schema.Struct({ deliveries: Schema.Array(WebhookDeliveryV3), has_more: Schema.Boolean })

/** `list_events`: the Store's events, newest first, with filters. */
export const listEventsTool = defineTool({
  name: "list_events",
  description:
    "Lists the Store's webhook events (id evt_…, type, created_at, data, delivery_status), newest first. Filters: type, created_after, created_before (ISO 8601), delivery_status (pending, delivered, failed). Page with before_id: the last id seen.",
  scopes: ["webhooks:read"],
  input: Schema.Struct({
    limit: Limit,
    before_id: Schema.optionalKey(EventId),
    type: Schema.optionalKey(Schema.Literals([...WEBHOOK_TOPICS, TEST_EVENT_TOPIC])),
    created_after: Schema.optionalKey(Instant),
    created_before: Schema.optionalKey(Instant),
    delivery_status: Schema.optionalKey(Schema.Literals(EVENT_DELIVERY_STATUSES))
  }),
  output: ListEventsOutput,
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  run: Effect.fn("tool.list_events")(function*(input, principal) {
      const limit = input.limit ?? 20
      const rows = yield* (yield* WebhookEvents).list(principal.storeId, {
        topic: input.type,
        createdAfter: input.created_after === undefined ? undefined : new Date(input.created_after),
        createdBefore: input.created_before === undefined ? undefined : new Date(input.created_before),
        deliveryStatus: input.delivery_status
      }, { limit: limit + 1, beforeId: input.before_id === undefined ? undefined : eventIdOfWebhookId(input.before_id) })
      const { items, has_more } = cutRows(rows, limit)
      return { events: items.map(eventV3Of), has_more }
    })
})

/** `get_event`: one event by its id. */
export const getEventTool = defineTool({
  name: "get_event",
  description: "Reads one webhook event by its id (evt_…, the x-webhook-id of its deliveries).",
  scopes: ["webhooks:read"],
  input: Schema.Struct({ event_id: EventId }),
  output: GetEventOutput,
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  run: Effect.fn("tool.get_event")(function*(input, principal) {
      const id = eventIdOfWebhookId(input.event_id)
      if (id === undefined) return yield* new NotFound({ resource: "event" })
      return eventV3Of(yield* (yield* WebhookEvents).find(principal.storeId, id))
    })
})

/** `list_webhook_deliveries`: a subscription's delivery log with every attempt. */
export const listWebhookDeliveriesTool = defineTool({
  name: "list_webhook_deliveries",
  description:
    "Lists a webhook subscription's deliveries, newest first, each with its attempts (status, response_status, response_body excerpt, trigger, next_attempt_at). Page with before_id: the last delivery id seen.",
  scopes: ["webhooks:read"],
  input: Schema.Struct({
    webhook_id: ResourceId,
    limit: Limit,
    before_id: Schema.optionalKey(ResourceId),
    status: Schema.optionalKey(Schema.Literals(["pending", "delivered", "failed", "cancelled"]))
  }),
  output: ListWebhookDeliveriesOutput,
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  run: Effect.fn("tool.list_webhook_deliveries")(function*(input, principal) {
      const limit = input.limit ?? 20
      const rows = yield* (yield* WebhookDeliveries).listForSubscription(principal.storeId, input.webhook_id, {
        limit: limit + 1,
        beforeId: input.before_id,
        status: input.status
      })
      const { items, has_more } = cutRows(rows, limit)
      return { deliveries: items.map(deliveryV3Of), has_more }
    })
})
