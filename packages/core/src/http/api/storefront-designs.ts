import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AbsoluteUrl, CurrencyCode, NonNegativeInt, PositiveInt, RequiredText } from "../../domain/orders/fields.js"
import { V3Customisation } from "../../domain/orders/v3-product.js"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"
import { problemAt } from "../failure-codecs.js"
import { ResourceIdParam } from "../resource-id.js"


/** A shopper's finished design (operating contract §3). */
export const FinishedDesignRequest = Schema.Struct({
  integration_id: PositiveInt,
  title: RequiredText,
  price: NonNegativeInt,
  compare_price: Schema.optionalKey(NonNegativeInt),
  currency: Schema.optionalKey(CurrencyCode),
  description: Schema.optionalKey(Schema.String),
  customisations: Schema.optionalKey(Schema.Array(V3Customisation)),
  product_image_url: Schema.optionalKey(AbsoluteUrl)
}).annotate({ identifier: "FinishedDesign" })

/** The recorded design and the id the integrator gave it. */
export const DesignCreated = Schema.Struct({
  product_id: Schema.Int,
  external_id: Schema.String
}).annotate({ identifier: "DesignCreated" })

/** Storefront: finished designs, handed to the integration's create-product URL. */
export class StorefrontDesignsApi extends HttpApiGroup.make("storefrontDesigns")
  .add(
    HttpApiEndpoint.post("finishDesign", "/customisers/:customiser_id/designs", {
      params: { customiser_id: ResourceIdParam("customiser") },
      payload: FinishedDesignRequest,
      success: DesignCreated.pipe(HttpApiSchema.status(201)),
      error: [problemAt(502)]
    }).annotate(OpenApi.Summary, "Record a finished design and hand it to the integration (product:created)")
  )
  .middleware(RequestFailures)
  .middleware(PublicAccess)
  .prefix("/storefront/v1")
  .annotate(OpenApi.Title, "Storefront: designs")
{}
