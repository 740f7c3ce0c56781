import { Context, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { ApiKeyPrincipal } from "../../domain/credentials/principal.js"
import { Identity, type Store } from "../../services/credentials/identity.js"
import { Settings } from "../../services/settings.js"
import { SigncraftApi } from "../api/index.js"
import type { StoreMeResponse } from "../api/v3-stores.js"
import { CurrentPrincipal } from "../middleware/definitions.js"
import { CurrentRequest, type RequestInfo } from "../request-info.js"
import { envelopeOf } from "../../presenters/envelope.js"
import { storeMeView } from "../../presenters/store.js"

/** `GET /api/v3/stores/me`. */
export const V3StoresHandlers = HttpApiBuilder.group(SigncraftApi, "v3Stores", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const settings = yield* Settings

    const respond = (principal: ApiKeyPrincipal, store: Store, info: RequestInfo) => {
      const body: typeof StoreMeResponse.Encoded = envelopeOf(storeMeView(principal, store), info, settings.baseUrl)
      // Every field is already in its wire form (strings, integers, literals), so the
      // body is written as is: the schema's encode would copy it unchanged, at a cost
      // on the busiest endpoint. The type annotation above keeps it to the schema.
      return HttpServerResponse.jsonUnsafe(body)
    }

    return handlers.handle("me", () =>
      Effect.contextWith((context: Context.Context<CurrentPrincipal>) => {
        const principal = Context.get(context, CurrentPrincipal)
        const info = Context.get(context, CurrentRequest)
        // The Store read with the key (see Credentials) spares a query per request.
        return principal.store === undefined
          ? Effect.map(identity.findStore(principal.storeId), (store) => respond(principal, store, info))
          : Effect.succeed(respond(principal, principal.store, info))
      }))
  }))
