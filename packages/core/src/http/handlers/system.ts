import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SigncraftApi } from "../api/index.js"

/** Health: the layer is only built once storage is migrated, so answering means ready. */
export const SystemHandlers = HttpApiBuilder.group(SigncraftApi, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed({ status: "ok" as const })))
