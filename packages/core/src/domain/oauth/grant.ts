import type { Scope } from "../scopes.js"

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

/** Why a grant was revoked. */
export type RevocationReason = "merchant" | "client" | "code_reuse" | "refresh_reuse" | "member_removed"
