import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { V3Customer } from "../../domain/orders/v3-order.js"
import { AnswerCarriesSecret } from "../annotations.js"
import { OperatorAuth, RequestFailures } from "../middleware/definitions.js"
import { refuseUnknownMembers } from "./parse-options.js"
import { ResourceIdParam } from "../resource-id.js"
import { IsoTimestamp } from "./iso-timestamp.js"

const Url = Schema.String.check(Schema.isMinLength(1))

const integrationFields = {
  id: Schema.Int,
  store_id: Schema.Int,
  name: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  create_product_url: Schema.String,
  created_at: Schema.String
}

/** An integration as the operator (merchant dashboard) sees it after a change: no secret, which the change left as it was. */
export const IntegrationView = Schema.Struct(integrationFields).annotate({ identifier: "Integration" })

/** A new integration, with the signing secret it was given: the one answer that carries it. */
export const CreatedIntegrationView = Schema.Struct({ ...integrationFields, signing_secret: Schema.String })
  .annotate({ identifier: "CreatedIntegration" })

const MoneyInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** One historical order of an import; `currency` is stored exactly as given. */
export const ImportedOrderInput = Schema.Struct({
  created_at: IsoTimestamp,
  total_amount: MoneyInt,
  currency: Schema.String,
  customer: Schema.optionalKey(Schema.NullOr(V3Customer))
})

/** One historical product of an import; `legacy: true` makes it a product-cache row. */
export const ImportedProductInput = Schema.Struct({
  created_at: IsoTimestamp,
  title: Schema.String.check(Schema.isMinLength(1)),
  price_amount: MoneyInt,
  currency: Schema.String,
  legacy: Schema.optionalKey(Schema.Boolean)
})

/** Operator API: integrations and historical imports (docs/commerce.md). */
export class OperatorCommerceApi extends HttpApiGroup.make("operatorCommerce")
  .add(
    HttpApiEndpoint.post("createIntegration", "/stores/:store_id/integrations", {
      params: { store_id: ResourceIdParam("store") },
      payload: Schema.Struct({
        create_product_url: Url,
        enabled: Schema.optionalKey(Schema.Boolean),
        name: Schema.optionalKey(Schema.NullOr(Schema.String))
      }),
      success: CreatedIntegrationView.pipe(HttpApiSchema.status(201))
    }).annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.patch("updateIntegration", "/integrations/:integration_id", {
      params: { integration_id: ResourceIdParam("integration") },
      payload: Schema.Struct({
        enabled: Schema.optionalKey(Schema.Boolean),
        create_product_url: Schema.optionalKey(Url)
      }),
      success: IntegrationView
    }).annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.post("importOrders", "/stores/:store_id/orders/import", {
      params: { store_id: ResourceIdParam("store") },
      payload: Schema.Struct({ orders: Schema.Array(ImportedOrderInput) }),
      success: Schema.Struct({ imported: Schema.Int })
    }),
    HttpApiEndpoint.post("importProducts", "/stores/:store_id/products/import", {
      params: { store_id: ResourceIdParam("store") },
      payload: Schema.Struct({ products: Schema.Array(ImportedProductInput) }),
      success: Schema.Struct({ imported: Schema.Int })
    })
  )
  .middleware(RequestFailures)
  .middleware(OperatorAuth)
  .prefix("/operator/v1")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Operator: integrations and imports")
{}
