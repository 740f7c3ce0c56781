import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AbsoluteUrl, CurrencyCode, NonNegativeInt, PositiveInt, RequiredText } from "../../domain/orders/fields.js"
import { V3Customisation } from "../../domain/orders/v3-product.js"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"
import { problemAt } from "../failure-codecs.js"
import { ResourceIdParam } from "../resource-id.js"
import { STOREFRONT_WRITE_BYTES, withinByteBudget } from "./byte-budget.js"


/** Caps of an anonymous design (docs/input-handling.md): it is stored and sent to the integrator. */
export const FINISHED_DESIGN_CAPS = { title: 500, description: 10_000, customisations: 100, label: 200, value: 2_000, url: 2_048 } as const

const capped = <S extends Schema.Top & { readonly Type: string }>(schema: S, max: number) => schema.check(Schema.isMaxLength(max))

/** A customisation of a shopper's design, within the storefront's caps. */
export const DesignCustomisation = Schema.Struct({
  key: capped(V3Customisation.fields.key, FINISHED_DESIGN_CAPS.label),
  label: capped(V3Customisation.fields.label, FINISHED_DESIGN_CAPS.label),
  value: capped(V3Customisation.fields.value, FINISHED_DESIGN_CAPS.value)
})

/** A shopper's finished design, held in all to `STOREFRONT_WRITE_BYTES` (`./byte-budget.ts`). */
export const FinishedDesignRequest = withinByteBudget(Schema.Struct({
  integration_id: PositiveInt,
  title: capped(RequiredText, FINISHED_DESIGN_CAPS.title),
  price: NonNegativeInt,
  compare_price: Schema.optionalKey(NonNegativeInt),
  currency: Schema.optionalKey(CurrencyCode),
  description: Schema.optionalKey(capped(Schema.String, FINISHED_DESIGN_CAPS.description)),
  customisations: Schema.optionalKey(Schema.Array(DesignCustomisation).check(Schema.isMaxLength(FINISHED_DESIGN_CAPS.customisations))),
  product_image_url: Schema.optionalKey(capped(AbsoluteUrl, FINISHED_DESIGN_CAPS.url))
}), STOREFRONT_WRITE_BYTES).annotate({ identifier: "FinishedDesign" })

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
