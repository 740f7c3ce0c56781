import { grantedScopes } from "../../domain/credentials/scopes.js"
import type { ApiKeyRecord } from "../../domain/credentials/api-key-record.js"
import { readableInstant, readableOrNever } from "./dates.js"

/** An API key as the dashboard lists it. */
export interface KeyRowView {
  readonly id: number
  readonly prefix: string
  readonly mode: "live" | "test"
  /** Its scopes, or every scope for a legacy wildcard key (which can do anything). */
  readonly scopes: ReadonlyArray<string>
  readonly legacyWildcard: boolean
  readonly created: string
  readonly lastUsed: string
  readonly expires: string | null
}

/** A Store's key as the dashboard lists it. */
export const keyRowView = (key: ApiKeyRecord): KeyRowView => ({
  id: key.id,
  prefix: key.prefix,
  mode: key.mode,
  scopes: grantedScopes(key.grant),
  legacyWildcard: key.grant._tag === "LegacyWildcard",
  created: readableInstant(key.createdAt),
  lastUsed: readableOrNever(key.lastUsedAt),
  expires: key.expiresAt === null ? null : readableInstant(key.expiresAt)
})
