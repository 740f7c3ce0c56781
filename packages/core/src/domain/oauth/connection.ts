import type { Scope } from "../credentials/scopes.js"

/** A live connection as the operator API lists it. */
export interface Connection {
  readonly id: number
  readonly clientId: string
  readonly clientName: string | null
  readonly personId: number
  readonly scopes: ReadonlyArray<Scope>
  readonly createdAt: Date
  /** The client's registered redirect URIs: where its people are sent back to, naming its host. */
  readonly redirectUris: ReadonlyArray<string>
  /** The last agent request made with it (to the minute), if any since this was recorded. */
  readonly lastUsedAt: Date | null
}
