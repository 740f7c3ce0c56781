import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Customisers } from "../../services/pricing/customisers.js"
import { Integrations } from "../../services/commerce/integrations.js"
import { Orders } from "../../services/commerce/orders.js"
import { Products } from "../../services/commerce/products.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { orderView, productView } from "../../presenters/commerce.js"
import { CursorKey } from "../../services/credentials/cursor-key.js"
import { envelope } from "./envelope.js"
import { idPage } from "./id-page.js"

/** v3 product and order writes, and the reads of what they wrote. */
export const V3CommerceHandlers = HttpApiBuilder.group(SigncraftApi, "v3Commerce", (handlers) =>
  Effect.gen(function*() {
    const customisers = yield* Customisers
    const integrations = yield* Integrations
    const products = yield* Products
    const orders = yield* Orders
    const cursorKey = (yield* CursorKey).secret
    return handlers
      .handle("createProduct", Effect.fn("v3Commerce.createProduct")(function*({ params, payload }) {
          const { storeId } = yield* CurrentPrincipal
          const customiser = yield* customisers.find(storeId, params.customiser_id)
          const integration = yield* integrations.usable(storeId, payload.integration_id, "any", "/integration_id")
          const product = yield* products.create(storeId, {
            kind: "product",
            customiserId: customiser.id,
            integrationId: integration.id,
            storeProductId: payload.store_product_id ?? null,
            title: payload.title,
            description: null,
            priceAmount: payload.price_amount,
            comparePrice: null,
            currency: payload.currency,
            details: {
              ...(payload.customisations === undefined ? {} : { customisations: payload.customisations }),
              ...(payload.artwork === undefined ? {} : { artwork: payload.artwork }),
              ...(payload.width_cm === undefined ? {} : { width_cm: payload.width_cm }),
              ...(payload.height_cm === undefined ? {} : { height_cm: payload.height_cm })
            }
          })
          return yield* envelope(productView(product), `/api/v3/products/${product.id}`)
        }))
      .handle("createOrder", Effect.fn("v3Commerce.createOrder")(function*({ payload }) {
          const { storeId } = yield* CurrentPrincipal
          const order = yield* orders.record(storeId, payload, {
            source: "v3",
            allowedKinds: ["product", "design"],
            integrationPointer: "/integration_id",
            lineItemPointer: (index) => `/line_items/${index}/product_id`
          })
          return yield* envelope(orderView(order), `/api/v3/orders/${order.id}`)
        }))
      .handle("getProduct", Effect.fn("v3Commerce.getProduct")(function*({ params }) {
          const { storeId } = yield* CurrentPrincipal
          return yield* envelope(productView(yield* products.findModern(storeId, params.product_id)))
        }))
      .handle("getOrder", Effect.fn("v3Commerce.getOrder")(function*({ params }) {
          const { storeId } = yield* CurrentPrincipal
          return yield* envelope(orderView(yield* orders.find(storeId, params.order_id)))
        }))
      .handle("listOrders", Effect.fn("v3Commerce.listOrders")(function*({ query }) {
          const { storeId } = yield* CurrentPrincipal
          return yield* idPage(
            query,
            { collection: "orders", storeId, filters: {} },
            cursorKey,
            ({ limit, cursorId }) => orders.listNewestFirst(storeId, { limit, beforeId: cursorId }),
            orderView
          )
        }))
  }))
