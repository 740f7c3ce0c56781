import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { grantedScopes } from "../../domain/scopes.js"
import { Identity } from "../../services/identity.js"
import { SigncraftApi } from "../api/index.js"
import type { StoreMeResponse } from "../api/v3-stores.js"
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
        // The Store read with the key (see Credentials) spares a query per request.
        const store = principal.store ?? (yield* identity.findStore(principal.storeId))
        const body: typeof StoreMeResponse.Encoded = yield* envelope({
          object: "store" as const,
          id: store.id,
          name: store.name,
          platform: store.platform,
          currency: store.currency,
          mode: principal.mode,
          scopes: grantedScopes(principal.grant)
        })
        // Every field is already in its wire form (strings, integers, literals), so the
        // body is written as is: the schema's encode would copy it unchanged, at a cost
        // on the busiest endpoint. The type annotation above keeps it to the schema.
        return HttpServerResponse.jsonUnsafe(body)
      }).pipe(orRespond))
  }))
