import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { RequiredScope } from "../annotations.js"
import { ApiKeyAuth, RequestFailures } from "../middleware/definitions.js"
import { CollectionEnvelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"

/** One answer of a form. */
export const FormResponseSchema = Schema.Struct({
  field_id: Schema.Union([Schema.String, Schema.Int]),
  name: Schema.String,
  input_type: Schema.String,
  value: Schema.String
}).annotate({ identifier: "FormResponse" })

/** A v3 quote: one form submission. `id` is stable: deduplicate `form:submitted` deliveries on it. */
export const QuoteV3 = Schema.Struct({
  object: Schema.Literal("quote"),
  id: Schema.Int,
  customiser_id: Schema.Int,
  form_id: Schema.NullOr(Schema.Int).annotate({
    description: "The form the shopper filled in; null for the customiser's built-in form."
  }),
  submission_number: Schema.Int,
  responses: Schema.Array(FormResponseSchema),
  created_at: Schema.String
}).annotate({ identifier: "Quote" })

/** v3 quotes (form submissions). */
export class V3QuotesApi extends HttpApiGroup.make("v3Quotes")
  .add(
    HttpApiEndpoint.get("list", "/quotes", {
      query: { limit: Schema.optionalKey(Schema.String), cursor: Schema.optionalKey(Schema.String) },
      success: CollectionEnvelope(QuoteV3)
    })
      .annotate(RequiredScope, "quotes:read")
      .annotate(OpenApi.Summary, "The Store's form submissions, oldest first; deduplicate on the quote id")
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Quotes")
{}
