import { Effect, Schema } from "effect"
import { OrderV3, ProductV3 } from "../../domain/orders/v3-views.js"
import { orderView, productView } from "../../presenters/commerce.js"
import { Orders } from "../../services/commerce/orders.js"
import { Products } from "../../services/commerce/products.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"
import { cutRows, PageInput, ResourceId } from "./inputs.js"

/** `list_orders`: the Store's orders newest first, as `GET /api/v3/orders` shows them. */
export const listOrdersTool = defineTool({
  name: "list_orders",
  description: "Lists the Store's orders, newest first. Page with limit and before_id (the last id already seen).",
  scopes: ["orders:read"],
  input: Schema.Struct({ limit: PageInput.limit, before_id: Schema.optionalKey(ResourceId) }),
  output: Schema.Struct({ orders: Schema.Array(OrderV3), has_more: Schema.Boolean }),
  hints: READ_ONLY,
  run: Effect.fn("tool.list_orders")(function*(input, principal) {
      const limit = input.limit ?? 20
      const rows = yield* (yield* Orders).listNewestFirst(principal.storeId, { limit: limit + 1, beforeId: input.before_id })
      const { items, has_more } = cutRows(rows, limit)
      return { orders: items.map(orderView), has_more }
    })
})

/** `get_order`: one order of the Store. */
export const getOrderTool = defineTool({
  name: "get_order",
  description: "Returns one order of the Store by id, whatever API generation sent it.",
  scopes: ["orders:read"],
  input: Schema.Struct({ order_id: ResourceId }),
  output: OrderV3,
  hints: READ_ONLY,
  run: Effect.fn("tool.get_order")(function*(input, principal) {
      return orderView(yield* (yield* Orders).find(principal.storeId, input.order_id))
    })
})

/** `get_product`: one product or design of the Store. */
export const getProductTool = defineTool({
  name: "get_product",
  description: "Returns one product or finished design of the Store by id.",
  scopes: ["products:read"],
  input: Schema.Struct({ product_id: ResourceId }),
  output: ProductV3,
  hints: READ_ONLY,
  run: Effect.fn("tool.get_product")(function*(input, principal) {
      return productView(yield* (yield* Products).findModern(principal.storeId, input.product_id))
    })
})
