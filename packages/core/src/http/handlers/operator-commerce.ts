import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Identity } from "../../services/credentials/identity.js"
import { Integrations } from "../../services/commerce/integrations.js"
import { Orders } from "../../services/commerce/orders.js"
import { Products } from "../../services/commerce/products.js"
import { createdIntegrationView, integrationView } from "../../presenters/operator.js"
import { SigncraftApi } from "../api/index.js"

/** The operator API's integrations and historical imports (imports announce nothing). */
export const OperatorCommerceHandlers = HttpApiBuilder.group(SigncraftApi, "operatorCommerce", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const integrations = yield* Integrations
    const orders = yield* Orders
    const products = yield* Products
    return handlers
      .handle("createIntegration", Effect.fn("operatorCommerce.createIntegration")(function*({ params, payload }) {
          yield* identity.findStore(params.store_id)
          return createdIntegrationView(
            yield* integrations.create(params.store_id, {
              name: payload.name ?? null,
              createProductUrl: payload.create_product_url,
              enabled: payload.enabled ?? true
            })
          )
        }))
      .handle("updateIntegration", ({ params, payload }) =>
        integrations.update(params.integration_id, {
          ...(payload.enabled === undefined ? {} : { enabled: payload.enabled }),
          ...(payload.create_product_url === undefined ? {} : { createProductUrl: payload.create_product_url })
        }).pipe(Effect.map(integrationView)))
      .handle("importOrders", Effect.fn("operatorCommerce.importOrders")(function*({ params, payload }) {
          yield* identity.findStore(params.store_id)
          const imported = yield* orders.importMany(
            params.store_id,
            payload.orders.map((order) => ({
              createdAt: new Date(order.created_at),
              totalAmount: order.total_amount,
              currency: order.currency,
              customer: order.customer ?? null
            }))
          )
          return { imported }
        }))
      .handle("importProducts", Effect.fn("operatorCommerce.importProducts")(function*({ params, payload }) {
          yield* identity.findStore(params.store_id)
          const imported = yield* products.importMany(
            params.store_id,
            payload.products.map((product) => ({
              createdAt: new Date(product.created_at),
              title: product.title,
              priceAmount: product.price_amount,
              currency: product.currency,
              legacy: product.legacy === true
            }))
          )
          return { imported }
        }))
  }))
