import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Readiness } from "../../services/operations/readiness.js"
import { SigncraftApi } from "../api/index.js"

/** The probes: health answers once the layer is built (storage migrated); readiness asks the database each time. */
export const SystemHandlers = HttpApiBuilder.group(SigncraftApi, "system", (handlers) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () => Effect.as(readiness.check(), { status: "ready" as const }))
  }))
