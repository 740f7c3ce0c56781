import type { Scope } from "../credentials/scopes.js"

/** A connector grant (connection) as the token decisions read it. */
export interface GrantRecord {
  readonly id: number
  readonly clientId: string
  readonly personId: number
  readonly storeId: number
  readonly scopes: ReadonlyArray<Scope>
  readonly resource: string
  readonly revokedAt: Date | null
}

/** Why a grant was revoked; `superseded` when the same client, person and Store were granted more. */
export type RevocationReason = "merchant" | "client" | "code_reuse" | "refresh_reuse" | "member_removed" | "superseded"

/**
 * The scopes of a grant that grows an earlier one (incremental consent): what the person
 * granted this client on this Store before, then what they approve now, each once.
 */
export const unionOfScopes = (earlier: ReadonlyArray<ReadonlyArray<Scope>>, approved: ReadonlyArray<Scope>): ReadonlyArray<Scope> => [
  ...new Set([...earlier.flat(), ...approved])
]
