import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CustomiserV3 } from "../../domain/pricing/customiser.js"
import { PricingDocumentV3 } from "../../domain/pricing/schema-v3.js"
import { Idempotency, RequiredScope } from "../annotations.js"
import { ApiKeyAuth, IdempotentWrites, RequestFailures } from "../middleware/definitions.js"
import { parsedJson } from "./parsed-json.js"
import { CollectionEnvelope, Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"
import { ResourceIdParam } from "../resource-id.js"

const params = { customiser_id: ResourceIdParam("customiser") }

// Pricing bodies are checked by the pricing validator, which refuses undeclared members.
const pricingBody = parsedJson("PricingDocumentWrite", PricingDocumentV3)
// RFC 7396 names its own media type; plain JSON is accepted too, as most clients send it.
const mergePatchBody = [
  pricingBody,
  parsedJson("PricingMergePatch", PricingDocumentV3).pipe(
    HttpApiSchema.asJson({ contentType: "application/merge-patch+json" })
  )
]

/** The answer of `POST …/pricing/validate` for a valid document. */
export const PricingValidationResult = Schema.Struct({
  object: Schema.Literal("pricing_validation"),
  valid: Schema.Literal(true),
  pricing: PricingDocumentV3
}).annotate({ identifier: "PricingValidation" })

const pricingDocs = (summary: string, description: string) => OpenApi.annotations({ summary, description })

/** v3 customisers and their pricing documents. */
export class V3CustomisersApi extends HttpApiGroup.make("v3Customisers")
  .add(
    HttpApiEndpoint.get("list", "/customisers", {
      query: { limit: Schema.optionalKey(Schema.String), cursor: Schema.optionalKey(Schema.String) },
      success: CollectionEnvelope(CustomiserV3)
    })
      .annotate(RequiredScope, "customisers:read")
      .annotate(OpenApi.Summary, "The Store's customisers, in creation order, paged with limit and cursor"),
    HttpApiEndpoint.get("get", "/customisers/:customiser_id", { params, success: Envelope(CustomiserV3) })
      .annotate(RequiredScope, "customisers:read")
      .annotate(OpenApi.Summary, "One customiser"),
    HttpApiEndpoint.get("getPricing", "/customisers/:customiser_id/pricing", {
      params,
      headers: { "if-none-match": Schema.optionalKey(Schema.String) },
      success: [Envelope(PricingDocumentV3), HttpApiSchema.Empty(304)]
    })
      .annotate(RequiredScope, "pricing:read")
      .annotateMerge(pricingDocs(
        "The customiser's pricing document",
        "Carries a strong `ETag` naming the document (`data`; `links` and `meta` are per request). " +
          "Send it back in `If-None-Match` and an unchanged document answers 304 with no body."
      )),
    HttpApiEndpoint.put("putPricing", "/customisers/:customiser_id/pricing", {
      params,
      payload: pricingBody,
      success: Envelope(PricingDocumentV3)
    })
      .annotate(RequiredScope, "pricing:write")
      .annotate(Idempotency, "required")
      .annotateMerge(pricingDocs(
        "Replace the pricing document",
        "Full replacement: omitted sizes, price lists and rows are deleted. Requires Idempotency-Key."
      ))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.patch("patchPricing", "/customisers/:customiser_id/pricing", {
      params,
      payload: mergePatchBody,
      success: Envelope(PricingDocumentV3)
    })
      .annotate(RequiredScope, "pricing:write")
      .annotate(Idempotency, "required")
      .annotateMerge(pricingDocs(
        "Merge-patch the pricing document (RFC 7396)",
        "Omitted members are unchanged, null removes a member, arrays are replaced whole. Requires Idempotency-Key."
      ))
      .middleware(IdempotentWrites),
    HttpApiEndpoint.post("validatePricing", "/customisers/:customiser_id/pricing/validate", {
      params,
      payload: pricingBody,
      success: Envelope(PricingValidationResult).pipe(HttpApiSchema.status(200))
    })
      .annotate(RequiredScope, ["pricing:read", "pricing:write"])
      .annotateMerge(pricingDocs(
        "Validate a pricing document without saving it",
        "The same validation as PUT. A valid document answers 200; an invalid one the 422 the PUT would give. Persists nothing and consumes no idempotency key."
      ))
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Customisers and pricing")
{}
