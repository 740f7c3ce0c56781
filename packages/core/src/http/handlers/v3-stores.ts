import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { grantedScopes } from "../../domain/scopes.js"
import { Identity } from "../../services/identity.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { orRespond } from "../respond.js"
import { envelope } from "./envelope.js"

/** `GET /api/v3/stores/me`. */
export const V3StoresHandlers = HttpApiBuilder.group(SigncraftApi, "v3Stores", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    return handlers.handle("me", () =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const store = yield* identity.findStore(principal.storeId)
        return yield* envelope({
          object: "store" as const,
          id: store.id,
          name: store.name,
          platform: store.platform,
          currency: store.currency,
          mode: principal.mode,
          scopes: grantedScopes(principal.grant)
        })
      }).pipe(orRespond))
  }))
