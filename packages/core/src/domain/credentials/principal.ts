import type { KeyMode } from "./api-key.js"
import type { Grant } from "./scopes.js"

/** A shop of a company, the unit every API key and resource belongs to. */
export interface Store {
  readonly id: number
  readonly companyId: number
  readonly name: string
  readonly platform: string
  readonly currency: string
}

/** A verified API key: who is calling and what it may do. */
export interface ApiKeyPrincipal {
  readonly keyId: number
  readonly storeId: number
  readonly mode: KeyMode
  readonly grant: Grant
  /**
   * The key's Store as read when the key was verified (at most the cache bound old), so
   * the hottest endpoint needs no second query. Absent where a principal is made by hand.
   */
  readonly store?: Store
}
