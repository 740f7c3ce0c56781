import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { LegacyOrderRequest } from "../../domain/orders/legacy-order.js"
import { LegacyProductSyncRequest } from "../../domain/orders/legacy-product.js"
import { V2OrderRequest } from "../../domain/orders/v2-order.js"
import { RequiredScope } from "../annotations.js"
import { LegacyApiKeyAuth, LegacyRequestFailures } from "../middleware/definitions.js"
import { legacyGeneration } from "./legacy-generation.js"
import { ResourceIdParam } from "../resource-id.js"

/** The v2 order response object. */
export const V2OrderResponse = Schema.Struct({
  order: Schema.Struct({
    order_id: Schema.Int,
    external_id: Schema.String,
    external_order_number: Schema.String,
    currency: Schema.NullOr(Schema.String),
    shipping_line: Schema.NullOr(Schema.String),
    products: Schema.Array(Schema.Struct({ external_id: Schema.String, quantity: Schema.Int, price: Schema.Int }))
  })
}).annotate({ identifier: "V2Order" })

const Ok = Schema.Struct({ ok: Schema.Boolean })

/** Previous generation: the v2 custom-integration order, the unversioned order and product sync. */
export class LegacyCommerceApi extends HttpApiGroup.make("legacyCommerce")
  .add(
    HttpApiEndpoint.post("v2CreateOrder", "/v2/orders", { payload: V2OrderRequest, success: V2OrderResponse })
      .annotate(RequiredScope, "orders:write"),
    HttpApiEndpoint.post("unversionedCreateOrder", "/orders", { payload: LegacyOrderRequest, success: Ok })
      .annotate(RequiredScope, "orders:write"),
    HttpApiEndpoint.post("unversionedSyncProduct", "/customisers/:customiser/products", {
      params: { customiser: ResourceIdParam("customiser") },
      payload: LegacyProductSyncRequest,
      success: Ok
    })
      .annotate(RequiredScope, "products:write")
  )
  .middleware(LegacyRequestFailures)
  .middleware(LegacyApiKeyAuth)
  .prefix("/api")
  .annotate(OpenApi.Title, "Previous generation: orders and products")
  .annotate(OpenApi.Exclude, true)
  .pipe(legacyGeneration)
{}
