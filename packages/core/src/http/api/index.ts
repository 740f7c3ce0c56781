import { HttpApi, OpenApi } from "effect/http-api"
import { OperatorApi } from "./operator.js"
import { SystemApi } from "./system.js"
import { V2CustomisersApi } from "./v2-customisers.js"
import { V3CustomisersApi } from "./v3-customisers.js"
import { V3StoresApi } from "./v3-stores.js"
import { LegacyCommerceApi } from "./legacy-commerce.js"
import { OperatorCommerceApi } from "./operator-commerce.js"
import { StorefrontDesignsApi } from "./storefront-designs.js"
import { V3AnalyticsApi } from "./v3-analytics.js"
import { V3CommerceApi } from "./v3-commerce.js"
import { StorefrontFormsApi } from "./storefront-forms.js"
import { V2WebhooksApi } from "./v2-webhooks.js"
import { V3QuotesApi } from "./v3-quotes.js"
import { V3EventsApi } from "./v3-events.js"
import { V3WebhooksApi } from "./v3-webhooks.js"

/** The whole HTTP contract of signcraft: every group, its schemas and its errors. */
export class SigncraftApi extends HttpApi.make("signcraft")
  .add(SystemApi)
  .add(V3StoresApi)
  .add(V3CustomisersApi)
  .add(V2CustomisersApi)
  .add(OperatorApi)
  .add(V3CommerceApi)
  .add(V3AnalyticsApi)
  .add(LegacyCommerceApi)
  .add(OperatorCommerceApi)
  .add(StorefrontDesignsApi)
  .add(V3WebhooksApi)
  .add(V3EventsApi)
  .add(V3QuotesApi)
  .add(V2WebhooksApi)
  .add(StorefrontFormsApi)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all" })
  .annotateMerge(OpenApi.annotations({
    title: "signcraft API",
    version: "3",
    description: "The v3 public API of the sign customisation service."
  }))
{}
