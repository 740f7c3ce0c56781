import { Data } from "effect"

/** Who holds a presented token: the grant it was issued under and the client it was issued to. */
export interface TokenHolder {
  readonly grantId: number
  readonly clientId: string
}

/** The outcome of a revocation request. */
export type RevocationOutcome = Data.TaggedEnum<{
  /** Revoke the grant: every token and unexchanged code of it. */
  Revoke: { readonly grantId: number }
  /** Nothing to revoke. */
  Ignore: Record<never, never>
}>

/** Constructors of {@link RevocationOutcome}. */
export const RevocationOutcome = Data.taggedEnum<RevocationOutcome>()

/**
 * RFC 7009 §2.1-2.2: a client revokes only tokens issued to it; an unknown token, or another
 * client's, changes nothing and is answered the same way.
 */
export const decideTokenRevocation = (clientId: string, holder: TokenHolder | undefined): RevocationOutcome =>
  holder !== undefined && holder.clientId === clientId
    ? RevocationOutcome.Revoke({ grantId: holder.grantId })
    : RevocationOutcome.Ignore()

/** The merchant revokes a connection: only a live grant can be revoked, any other is not found. */
export const decideConnectionRevocation = (
  grant: { readonly id: number; readonly revokedAt: Date | null } | undefined
): RevocationOutcome =>
  grant !== undefined && grant.revokedAt === null ? RevocationOutcome.Revoke({ grantId: grant.id }) : RevocationOutcome.Ignore()
