import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CustomiserV2 } from "../../domain/pricing/customiser.js"
import { PricingDocumentV2 } from "../../domain/pricing/schema-v2.js"
import { RequiredScope } from "../annotations.js"
import { LegacyApiKeyAuth, LegacyRequestFailures } from "../middleware/definitions.js"
import { legacyGeneration } from "./legacy-generation.js"
import { parsedJson } from "./parsed-json.js"
import { ResourceIdParam } from "../resource-id.js"

const params = { customiser: ResourceIdParam("customiser") }

/** Previous generation (deprecated): customisers and pricing in the v2 shape. */
export class V2CustomisersApi extends HttpApiGroup.make("v2Customisers")
  .add(
    HttpApiEndpoint.get("list", "/customisers", {
      success: Schema.Struct({ customisers: Schema.Array(CustomiserV2) })
    })
      .annotate(RequiredScope, "customisers:read"),
    HttpApiEndpoint.get("get", "/customisers/:customiser", {
      params,
      success: Schema.Struct({ customiser: CustomiserV2 })
    })
      .annotate(RequiredScope, "customisers:read"),
    HttpApiEndpoint.get("getPricing", "/customisers/:customiser/pricing", {
      params,
      success: Schema.Struct({ pricing: PricingDocumentV2 })
    })
      .annotate(RequiredScope, "pricing:read"),
    HttpApiEndpoint.put("putPricing", "/customisers/:customiser/pricing", {
      params,
      // Checked by the v2 pricing validator, which knows the stored customiser (see v3-customisers.ts).
      payload: parsedJson("PricingPutBodyV2", Schema.Struct({ pricing: PricingDocumentV2 })),
      success: Schema.Struct({ pricing: PricingDocumentV2 })
    })
      .annotate(RequiredScope, "pricing:write")
  )
  .middleware(LegacyRequestFailures)
  .middleware(LegacyApiKeyAuth)
  .prefix("/api/v2")
  .annotate(OpenApi.Title, "v2 customisers (deprecated)")
  .annotate(OpenApi.Exclude, true)
  .pipe(legacyGeneration)
{}
