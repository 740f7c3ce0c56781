import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SCOPES } from "../../domain/credentials/scopes.js"
import { RequiredScope } from "../annotations.js"
import { ApiKeyAuth, RequestFailures } from "../middleware/definitions.js"
import { Envelope } from "../wire.js"
import { refuseUnknownMembers } from "./parse-options.js"

/** The v3 Store as the calling key sees it. */
export const StoreV3 = Schema.Struct({
  object: Schema.Literal("store"),
  id: Schema.Int,
  name: Schema.String,
  platform: Schema.String,
  currency: Schema.String,
  mode: Schema.Literals(["live", "test"]),
  scopes: Schema.Array(Schema.Literals(SCOPES))
}).annotate({ identifier: "Store" })

/** The body of `GET /api/v3/stores/me`. */
export const StoreMeResponse = Envelope(StoreV3)

/** v3 Store operations. */
export class V3StoresApi extends HttpApiGroup.make("v3Stores")
  .add(
    HttpApiEndpoint.get("me", "/stores/me", { success: StoreMeResponse })
      .annotate(RequiredScope, "store:read")
      .annotate(OpenApi.Summary, "The Store of the calling API key, with the key's scopes")
  )
  .middleware(RequestFailures)
  .middleware(ApiKeyAuth)
  .prefix("/api/v3")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Stores")
{}
