import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { QuoteV3 } from "../../domain/quotes/view.js"
import { RequiredScope } from "../annotations.js"
import { ApiKeyAuth, RequestFailures } from "../middleware/definitions.js"
import { CollectionEnvelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"

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
