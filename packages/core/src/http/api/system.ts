import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"

// A liveness probe sends no input, so none of the request failures can answer it; the per-IP
// quota still can (429), and is all a probe's owner needs to know of.
const onlyWhatAProbeMeets = (operation: Record<string, unknown>): Record<string, unknown> => {
  const responses = typeof operation.responses === "object" && operation.responses !== null ? operation.responses : {}
  return {
    ...operation,
    responses: Object.fromEntries(Object.entries(responses).filter(([status]) => status.startsWith("2") || status === "429"))
  }
}

/** `GET /healthz`: 200 once the server accepts requests (its database migrated). */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/healthz", { success: Schema.Struct({ status: Schema.Literal("ok") }) })
      .annotate(OpenApi.Summary, "Liveness: 200 once the server accepts requests (its database migrated)")
      .annotate(OpenApi.Transform, onlyWhatAProbeMeets)
  )
  .middleware(RequestFailures)
  .middleware(PublicAccess)
  .annotate(OpenApi.Title, "System")
{}
