import type { KeyMode } from "./api-key.js"
import type { Grant } from "./scopes.js"

/** A key as the Store's people see it in the dashboard: never its secret or hash. */
export interface ApiKeyRecord {
  readonly id: number
  /** The first characters of the secret (`sk_test_Ab12`), enough to tell keys apart. */
  readonly prefix: string
  readonly mode: KeyMode
  readonly grant: Grant
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly expiresAt: Date | null
}
