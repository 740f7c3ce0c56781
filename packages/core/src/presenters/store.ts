import { grantedScopes } from "../domain/credentials/scopes.js"
import type { ApiKeyPrincipal } from "../domain/credentials/principal.js"
import type { Store } from "../domain/credentials/principal.js"

/** The Store as `GET /api/v3/stores/me` shows it to the key that asks. */
export const storeMeView = (principal: ApiKeyPrincipal, store: Store) => ({
  object: "store" as const,
  id: store.id,
  name: store.name,
  platform: store.platform,
  currency: store.currency,
  mode: principal.mode,
  scopes: grantedScopes(principal.grant)
})
