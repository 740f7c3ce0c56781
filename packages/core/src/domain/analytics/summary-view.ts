import { Schema } from "effect"
import { ANALYTICS_PERIODS } from "./period.js"

// The v3 view of the analytics summary, shared by the HTTP API and the agent tools' output schemas.

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
