import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"

/** `GET /healthz`: 200 once the server accepts requests (its database migrated). */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(HttpApiEndpoint.get("health", "/healthz", { success: Schema.Struct({ status: Schema.Literal("ok") }) }))
  .middleware(RequestFailures)
  .middleware(PublicAccess)
{}
