import { Context, Effect, Layer } from "effect"
import type { NotFound } from "../../domain/errors.js"
import type { AuthorizationRequest } from "../../domain/oauth/authorization-request.js"
import type { InvalidAccessToken, OAuthError } from "../../domain/oauth/errors.js"
import type { Scope } from "../../domain/credentials/scopes.js"
import { type AgentPrincipal, makeAccessTokenCheck } from "./access-token-check.js"
import { type CodeExchange, makeAuthorizationCodeGrant } from "./authorization-code-grant.js"
import { type Connection, makeConnections, type StoreGrant } from "./connections.js"
import { makeRefreshTokenGrant, type RefreshRequest } from "./refresh-token-grant.js"
import type { TokenResponse } from "./token-issuance.js"
import { makeTokenRevocation } from "./token-revocation.js"

export type { AgentPrincipal } from "./access-token-check.js"
export type { CodeExchange } from "./authorization-code-grant.js"
export type { Connection, StoreGrant } from "./connections.js"
export type { RefreshRequest } from "./refresh-token-grant.js"
export type { TokenResponse } from "./token-issuance.js"
export type { RevocationReason } from "../../domain/oauth/grant.js"

/**
 * Connector grants (connections) and everything issued under them: authorization codes,
 * access tokens and refresh tokens, through the transitions `domain/oauth/` decides (codes are
 * single-use, refresh tokens rotate, reuse revokes the grant; docs/agent.md). Each grant type lives in its own module under `services/oauth/`
 * (read rows, ask the pure decision in `domain/oauth/`, write in one transaction); this
 * service is the one face the HTTP and agent layers use.
 */
export class OAuthGrants extends Context.Service<OAuthGrants, {
  /** Records the person's approval and issues a code for it. */
  readonly approve: (
    request: AuthorizationRequest,
    personId: number,
    storeId: number,
    scopes: ReadonlyArray<Scope>
  ) => Effect.Effect<string>
  /** Single-use codes, revoked by any failed exchange; a replayed exchanged code revokes its grant. */
  readonly exchangeCode: (input: CodeExchange) => Effect.Effect<TokenResponse, OAuthError>
  /** Refresh rotation with reuse detection. */
  readonly refresh: (input: RefreshRequest) => Effect.Effect<TokenResponse, OAuthError>
  /** RFC 7009: revokes the grant of a token issued to `clientId`; unknown tokens change nothing. */
  readonly revokeToken: (clientId: string, token: string) => Effect.Effect<void>
  /** Verifies an agent request's bearer token for `resource`. */
  readonly authenticate: (token: string, resource: string) => Effect.Effect<AgentPrincipal, InvalidAccessToken>
  /** The live connections of a Store. */
  readonly listConnections: (storeId: number) => Effect.Effect<ReadonlyArray<Connection>>
  /** What a person already granted a client, per Store (the consent screen marks what is new). */
  readonly storeGrantsOf: (clientId: string, personId: number) => Effect.Effect<ReadonlyArray<StoreGrant>>
  /** The merchant revokes a connection: every token and unexchanged code of it. */
  readonly revokeConnection: (grantId: number) => Effect.Effect<void, NotFound>
  /** Revokes every live grant a person gave for a company's Stores (they left it); how many. */
  readonly revokeMemberGrants: (companyId: number, personId: number) => Effect.Effect<number>
  /** Deletes expired codes and tokens. */
  readonly prune: Effect.Effect<void>
}>()("signcraft/OAuthGrants") {
  static readonly layer = Layer.effect(
    OAuthGrants,
    Effect.gen(function*() {
      const codeGrant = yield* makeAuthorizationCodeGrant
      const refreshGrant = yield* makeRefreshTokenGrant
      const revocation = yield* makeTokenRevocation
      const accessTokens = yield* makeAccessTokenCheck
      const connections = yield* makeConnections
      return OAuthGrants.of({
        approve: codeGrant.approve,
        exchangeCode: codeGrant.exchangeCode,
        refresh: refreshGrant.refresh,
        revokeToken: revocation.revokeToken,
        authenticate: accessTokens.authenticate,
        listConnections: connections.listConnections,
        storeGrantsOf: connections.storeGrantsOf,
        revokeConnection: revocation.revokeConnection,
        revokeMemberGrants: revocation.revokeMemberGrants,
        prune: connections.prune
      })
    })
  )
}
