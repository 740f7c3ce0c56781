import { Effect, Schema } from "effect"
import { SCOPES } from "../../domain/credentials/scopes.js"
import { Identity } from "../../services/credentials/identity.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"

/** What `get_store` answers: the Store and what this connection may do there. */
const ConnectedStore = Schema.Struct({
  id: Schema.Int,
  platform: Schema.String,
  scopes: Schema.Array(Schema.Literals(SCOPES))
}).annotate({ identifier: "ConnectedStore" })

/** `get_store`: the connected Store's `id`, `platform` and the `scopes` granted to the connection. */
export const getStoreTool = defineTool({
  name: "get_store",
  description: "Returns the connected Store: its id, its platform and the scopes granted to this connection.",
  scopes: ["store:read"],
  input: Schema.Struct({}),
  output: ConnectedStore,
  hints: READ_ONLY,
  run: Effect.fn("tool.get_store")(function*(_input, principal) {
      const store = yield* (yield* Identity).findStore(principal.storeId)
      return { id: store.id, platform: store.platform, scopes: principal.scopes }
    })
})
