import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { V3OrderRequest } from "../../domain/orders/v3-order.js"
import { V3ProductRequest } from "../../domain/orders/v3-product.js"
import { OrderV3, ProductV3 } from "../../domain/orders/v3-views.js"
import { AnswerHoldsNoSecret, Idempotency, KeyClaimedByHandler, RequiredScope } from "../annotations.js"
import { ApiKeyAuth, IdempotentWrites, RequestFailures } from "../middleware/definitions.js"
import { CollectionEnvelope, Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"
import { ResourceIdParam } from "../resource-id.js"

/** `Idempotency-Key`: optional on these writes; the same key and body replays the first answer. */
const IdempotencyHeaders = { "idempotency-key": Schema.optionalKey(Schema.String) }


/** v3 products and orders: writes, and reading back what was written (docs/commerce.md). */
export class V3CommerceApi extends HttpApiGroup.make("v3Commerce")
  .add(
    HttpApiEndpoint.post("createProduct", "/customisers/:customiser_id/products", {
      params: { customiser_id: ResourceIdParam("customiser") },
      headers: IdempotencyHeaders,
      payload: V3ProductRequest,
      success: Envelope(ProductV3).pipe(HttpApiSchema.status(201))
    })
      .middleware(IdempotentWrites)
      .annotate(RequiredScope, "products:write")
      .annotate(Idempotency, "optional")
      .annotate(OpenApi.Summary, "Create a product of a customiser"),
    HttpApiEndpoint.get("getProduct", "/products/:product_id", {
      params: { product_id: ResourceIdParam("product") },
      success: Envelope(ProductV3)
    })
      .annotate(RequiredScope, "products:read")
      .annotate(OpenApi.Summary, "One product or design of the Store, as its create answered it"),
    HttpApiEndpoint.get("listOrders", "/orders", {
      query: { limit: Schema.optionalKey(Schema.String), cursor: Schema.optionalKey(Schema.String) },
      success: CollectionEnvelope(OrderV3)
    })
      .annotate(RequiredScope, "orders:read")
      .annotate(OpenApi.Summary, "The Store's orders of every generation, newest first, paged with limit and cursor"),
    HttpApiEndpoint.get("getOrder", "/orders/:order_id", {
      params: { order_id: ResourceIdParam("order") },
      success: Envelope(OrderV3)
    })
      .annotate(RequiredScope, "orders:read")
      .annotate(OpenApi.Summary, "One order of the Store, whatever generation wrote it"),
    HttpApiEndpoint.post("createOrder", "/orders", {
      headers: IdempotencyHeaders,
      payload: V3OrderRequest,
      success: Envelope(OrderV3).pipe(HttpApiSchema.status(201))
    })
      .middleware(IdempotentWrites)
      .annotate(RequiredScope, "orders:write")
      .annotate(Idempotency, "optional")
      // Orders.record claims the key in its first statement and defers its one write (HeldKey).
      .annotate(KeyClaimedByHandler, true)
      .annotate(AnswerHoldsNoSecret, true)
      .annotate(OpenApi.Summary, "Send a completed order; prices are captured from the referenced products")
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Orders and products")
{}
