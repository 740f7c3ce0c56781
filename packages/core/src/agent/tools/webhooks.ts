import { Effect, Schema } from "effect"
import { CreatedWebhookSubscriptionV3, WebhookSubscriptionV3 } from "../../domain/webhooks/subscription-view.js"
import { WebhookTopicSchema } from "../../domain/webhooks/topics.js"
import { subscriptionV3Of } from "../../presenters/webhooks.js"
import { WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"
import { cutRows, PageInput, pageOf, ResourceId } from "./inputs.js"

/** `list_webhook_subscriptions`: the Store's subscriptions, without their secrets. */
export const listWebhookSubscriptionsTool = defineTool({
  name: "list_webhook_subscriptions",
  description: "Lists the Store's webhook subscriptions (topic and delivery URL), oldest first.",
  scopes: ["webhooks:read"],
  input: Schema.Struct(PageInput),
  output: Schema.Struct({ webhook_subscriptions: Schema.Array(WebhookSubscriptionV3), has_more: Schema.Boolean }),
  hints: READ_ONLY,
  run: Effect.fn("tool.list_webhook_subscriptions")(function*(input, principal) {
      const page = pageOf(input)
      const rows = yield* (yield* WebhookSubscriptions).list(principal.storeId, { limit: page.limit + 1, afterId: page.afterId })
      const { items, has_more } = cutRows(rows, page.limit)
      return { webhook_subscriptions: items.map(subscriptionV3Of), has_more }
    })
})

/** `create_webhook_subscription`: the signing secret is returned here only. */
export const createWebhookSubscriptionTool = defineTool({
  name: "create_webhook_subscription",
  description:
    "Subscribes a delivery URL to one topic (product:created, order:created, form:submitted). The signing secret is returned once, here.",
  scopes: ["webhooks:write"],
  input: Schema.Struct({ topic: WebhookTopicSchema, url: Schema.String }),
  output: CreatedWebhookSubscriptionV3,
  // Each call creates another subscription with its own secret.
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  run: Effect.fn("tool.create_webhook_subscription")(function*(input, principal) {
      const created = yield* (yield* WebhookSubscriptions).create(principal.storeId, input)
      return { ...subscriptionV3Of(created), secret: created.secret }
    })
})

/** `update_webhook_subscription`: change the topic and/or the URL. */
export const updateWebhookSubscriptionTool = defineTool({
  name: "update_webhook_subscription",
  description: "Changes the topic and/or the delivery URL of a webhook subscription.",
  scopes: ["webhooks:write"],
  input: Schema.Struct({
    webhook_id: ResourceId,
    topic: Schema.optionalKey(WebhookTopicSchema),
    url: Schema.optionalKey(Schema.String)
  }),
  output: WebhookSubscriptionV3,
  // The new topic or URL replaces the old one: deliveries go elsewhere from then on.
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  run: Effect.fn("tool.update_webhook_subscription")(function*({ webhook_id, ...change }, principal) {
      return subscriptionV3Of(yield* (yield* WebhookSubscriptions).update(principal.storeId, webhook_id, change))
    })
})

/** `delete_webhook_subscription`: stops deliveries to the subscription. */
export const deleteWebhookSubscriptionTool = defineTool({
  name: "delete_webhook_subscription",
  description: "Deletes a webhook subscription; its pending deliveries are cancelled.",
  scopes: ["webhooks:write"],
  input: Schema.Struct({ webhook_id: ResourceId }),
  output: Schema.Struct({ deleted: Schema.Literal(true), webhook_id: Schema.Int }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  run: Effect.fn("tool.delete_webhook_subscription")(function*(input, principal) {
      yield* (yield* WebhookSubscriptions).remove(principal.storeId, input.webhook_id)
      return { deleted: true as const, webhook_id: input.webhook_id }
    })
})
