import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ANALYTICS_PERIODS } from "../../domain/analytics/period.js"
import { RequiredScope } from "../annotations.js"
import { ApiKeyAuth, RequestFailures } from "../middleware/definitions.js"
import { Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"

/** A revenue bucket: one native currency (null for malformed stored codes), never converted. */
export const RevenueBucketV3 = Schema.Struct({
  currency: Schema.NullOr(Schema.String),
  amount: Schema.Int,
  order_count: Schema.Int
}).annotate({ identifier: "RevenueBucket" })

/** `analytics_summary`: counts and revenue over a half-open window of whole UTC days. */
export const AnalyticsSummaryV3 = Schema.Struct({
  object: Schema.Literal("analytics_summary"),
  period: Schema.Literals(ANALYTICS_PERIODS),
  starts_at: Schema.String,
  ends_before: Schema.String,
  order_count: Schema.Int,
  product_count: Schema.Int,
  revenue: Schema.Array(RevenueBucketV3)
}).annotate({ identifier: "AnalyticsSummary" })

// Any text passes here: the domain rule checks it and names the parameter in its fault. The
// document still lists the accepted periods, so clients and generators offer only those.
const PeriodQuery = Schema.String.check(
  Schema.makeFilter(() => true, { toJsonSchema: () => ({ enum: [...ANALYTICS_PERIODS] }) })
)

/** v3 analytics. */
export class V3AnalyticsApi extends HttpApiGroup.make("v3Analytics")
  .add(
    HttpApiEndpoint.get("summary", "/analytics/summary", {
      // Read as text and checked by the domain rule, so every fault names its parameter.
      query: { period: Schema.optionalKey(PeriodQuery), end_date: Schema.optionalKey(Schema.String) },
      success: Envelope(AnalyticsSummaryV3)
    })
      .annotate(RequiredScope, "analytics:read")
      .annotate(
        OpenApi.Summary,
        "Orders, modern products and revenue per native currency over [starts_at, ends_before)"
      )
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Analytics")
{}
