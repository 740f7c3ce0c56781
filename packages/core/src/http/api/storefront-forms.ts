import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"
import { FormResponseSchema } from "./v3-quotes.js"
import { ResourceIdParam } from "../resource-id.js"

/** Storefront (no credential, per-IP quota): form submissions of a customiser. */
export class StorefrontFormsApi extends HttpApiGroup.make("storefrontForms")
  .add(
    HttpApiEndpoint.post("submit", "/customisers/:customiser_id/form-submissions", {
      params: { customiser_id: ResourceIdParam("customiser") },
      payload: Schema.Struct({
        form_id: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0))),
        responses: Schema.Array(FormResponseSchema).check(Schema.isMinLength(1))
      }),
      success: Schema.Struct({ quote_id: Schema.Int }).pipe(HttpApiSchema.status(201))
    }).annotateMerge(OpenApi.annotations({
      summary: "Submit a customiser's form",
      description: "Stores the submission as a quote (GET /api/v3/quotes) and queues form:submitted to the Store's subscriptions."
    }))
  )
  .middleware(RequestFailures)
  .middleware(PublicAccess)
  .prefix("/storefront/v1")
  .annotate(OpenApi.Title, "Storefront forms")
{}
