import type { Analytics } from "../../services/commerce/analytics.js"
import type { Customisers } from "../../services/pricing/customisers.js"
import type { Identity } from "../../services/credentials/identity.js"
import type { Orders } from "../../services/commerce/orders.js"
import type { Products } from "../../services/commerce/products.js"
import type { Quotes } from "../../services/commerce/quotes.js"
import type { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import type { WebhookEvents } from "../../services/webhooks/events.js"
import type { WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import type { AgentTool } from "../tool.js"
import { analyticsSummaryTool } from "./analytics.js"
import { getOrderTool, getProductTool, listOrdersTool } from "./commerce.js"
import { getCustomiserTool, listCustomisersTool } from "./customisers.js"
import { getStoreTool } from "./get-store.js"
import { getPricingTool, patchPricingTool, replacePricingTool, validatePricingTool } from "./pricing.js"
import { listQuotesTool } from "./quotes.js"
import { getEventTool, listEventsTool, listWebhookDeliveriesTool } from "./webhook-events.js"
import {
  createWebhookSubscriptionTool,
  deleteWebhookSubscriptionTool,
  listWebhookSubscriptionsTool,
  updateWebhookSubscriptionTool
} from "./webhooks.js"

/**
 * Every tool of the agent endpoint, in `tools/list` order. To add one: write
 * `tools/<name>.ts` with `defineTool` (its scopes, an input schema, and a body calling
 * core services for `principal.storeId`), then list it here; its services must be in
 * the app's layer.
 */
/** The core services the agent tools call. */
export type AgentToolServices =
  | Identity
  | Customisers
  | Analytics
  | Quotes
  | WebhookSubscriptions
  | WebhookDeliveries
  | WebhookEvents
  | Orders
  | Products

/** Every tool of the agent endpoint. */
export const agentTools: ReadonlyArray<AgentTool<AgentToolServices>> = [
  getStoreTool,
  listCustomisersTool,
  getCustomiserTool,
  getPricingTool,
  validatePricingTool,
  replacePricingTool,
  patchPricingTool,
  analyticsSummaryTool,
  listOrdersTool,
  getOrderTool,
  getProductTool,
  listQuotesTool,
  listWebhookSubscriptionsTool,
  createWebhookSubscriptionTool,
  updateWebhookSubscriptionTool,
  deleteWebhookSubscriptionTool,
  listWebhookDeliveriesTool,
  listEventsTool,
  getEventTool
]
