import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ANALYTICS_PERIODS } from "../../domain/analytics/period.js"
import { AnalyticsSummaryV3 } from "../../domain/analytics/summary-view.js"
import { RequiredScope } from "../annotations.js"
import { ApiKeyAuth, RequestFailures } from "../middleware/definitions.js"
import { Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"

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
