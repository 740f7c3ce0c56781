import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { problemAt } from "../failure-codecs.js"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"

/**
 * The probes. `GET /healthz` (liveness): 200 once the server accepts requests (its database
 * migrated). `GET /readyz` (readiness): 200 while the database answers and is migrated to this
 * release, else 503 `service_unavailable` with `Retry-After`.
 */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(HttpApiEndpoint.get("health", "/healthz", { success: Schema.Struct({ status: Schema.Literal("ok") }) }))
  .add(HttpApiEndpoint.get("ready", "/readyz", { success: Schema.Struct({ status: Schema.Literal("ready") }), error: [problemAt(503)] }))
  .middleware(RequestFailures)
  .middleware(PublicAccess)
{}
