import { Effect, Schema } from "effect"
import { CustomiserV3, customiserV3Of } from "../../domain/pricing/customiser.js"
import { Customisers } from "../../services/pricing/customisers.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"
import { cutRows, PageInput, pageOf, ResourceId } from "./inputs.js"

/** `list_customisers`: the Store's customisers in creation order, as `GET /api/v3/customisers` shows them. */
export const listCustomisersTool = defineTool({
  name: "list_customisers",
  description: "Lists the Store's customisers (configurable sign products), oldest first. Page with limit and after_id.",
  scopes: ["customisers:read"],
  input: Schema.Struct(PageInput),
  output: Schema.Struct({ customisers: Schema.Array(CustomiserV3), has_more: Schema.Boolean }),
  hints: READ_ONLY,
  run: Effect.fn("tool.list_customisers")(function*(input, principal) {
      const page = pageOf(input)
      const rows = yield* (yield* Customisers).list(principal.storeId, { limit: page.limit + 1, afterId: page.afterId })
      const { items, has_more } = cutRows(rows, page.limit)
      return { customisers: items.map(customiserV3Of), has_more }
    })
})

/** `get_customiser`: one customiser of the Store. */
export const getCustomiserTool = defineTool({
  name: "get_customiser",
  description: "Returns one customiser of the Store by id.",
  scopes: ["customisers:read"],
  input: Schema.Struct({ customiser_id: ResourceId }),
  output: CustomiserV3,
  hints: READ_ONLY,
  run: Effect.fn("tool.get_customiser")(function*(input, principal) {
      return customiserV3Of(yield* (yield* Customisers).find(principal.storeId, input.customiser_id))
    })
})
