import { Effect, Schema } from "effect"
import { Identity } from "../../services/identity.js"
import { defineTool } from "../tool.js"

/** `get_store`: the connected Store's `id`, `platform` and the `scopes` granted to the connection. */
export const getStoreTool = defineTool({
  name: "get_store",
  description: "Returns the connected Store: its id, its platform and the scopes granted to this connection.",
  scopes: ["store:read"],
  input: Schema.Struct({}),
  hints: { readOnlyHint: true, idempotentHint: true },
  run: (_input, principal) =>
    Effect.gen(function*() {
      const store = yield* (yield* Identity).findStore(principal.storeId)
      return { id: store.id, platform: store.platform, scopes: principal.scopes }
    })
})
