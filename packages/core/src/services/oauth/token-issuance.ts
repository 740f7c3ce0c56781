import { Clock, Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { randomBase62 } from "../../domain/credentials/api-key.js"
import type { GrantRecord } from "../../domain/oauth/grant.js"
import { formatScopes } from "../../domain/oauth/scope-param.js"
import { ACCESS_TOKEN_TTL_SECONDS, hashSecret, newSecret, REFRESH_TOKEN_TTL_SECONDS } from "../../domain/oauth/tokens.js"
import type { Scope } from "../../domain/credentials/scopes.js"
import { OAuthClients } from "./clients.js"
import { AccessTokenSigner, type SigningKey } from "./tokens.js"
import { IdRow, jsonb } from "./rows.js"

/** The RFC 6749 §5.1 token response. */
export interface TokenResponse {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token?: string
  readonly scope: string
}

/** Issues an access token, and a refresh token when asked, under a grant. */
export const makeTokenIssuance = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const signer = yield* AccessTokenSigner
  const clients = yield* OAuthClients

  const insertRefreshToken = SqlSchema.findOne({
    Request: Schema.Struct({ grant: Schema.Struct({ id: Schema.Int, clientId: Schema.String }), tokenHash: Schema.String }),
    Result: IdRow,
    execute: ({ grant, tokenHash }) =>
      sql`
        INSERT INTO oauth_refresh_tokens (token_hash, grant_id, client_id, expires_at)
        VALUES (${tokenHash}, ${grant.id}, ${grant.clientId}, now() + make_interval(secs => ${REFRESH_TOKEN_TTL_SECONDS}))
        RETURNING id`
  })

  return {
    /** Whether the client registered the `refresh_token` grant type. */
    clientMayRefresh: (clientId: string) =>
      Effect.map(clients.find(clientId), (client) => client?.grantTypes.includes("refresh_token") === true),

    /**
     * Writes the new token rows and signs the access token; runs inside the caller's transaction.
     * `signingKey` is fetched before that transaction (see {@link AccessTokenSigner.signingKey}).
     */
    issuePair: Effect.fn("OAuthGrants.issuePair")(function*(grant: GrantRecord, withRefresh: boolean, scopes: ReadonlyArray<Scope>, signingKey: SigningKey) {
        const now = yield* Clock.currentTimeMillis
        const refreshToken = withRefresh ? newSecret("sc_rt_") : undefined
        const refreshId = refreshToken === undefined ? null : (yield* insertRefreshToken({ grant, tokenHash: hashSecret(refreshToken) })).id
        const jti = `at_${randomBase62(24)}`
        const expiresAt = Math.floor(now / 1000) + ACCESS_TOKEN_TTL_SECONDS
        const scope = formatScopes(scopes)
        yield* sql`
          INSERT INTO oauth_access_tokens (jti, grant_id, refresh_token_id, client_id, scopes, resource, expires_at)
          VALUES (${jti}, ${grant.id}, ${refreshId}, ${grant.clientId}, ${jsonb(scopes)}::jsonb, ${grant.resource},
            now() + make_interval(secs => ${ACCESS_TOKEN_TTL_SECONDS}))`
        const accessToken = yield* signer.signWith(
          signingKey,
          { jti, sub: String(grant.personId), client_id: grant.clientId, aud: grant.resource, scope },
          expiresAt
        )
        yield* clients.markUsed(grant.clientId)
        const response: TokenResponse = {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: ACCESS_TOKEN_TTL_SECONDS,
          ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
          scope
        }
        return response
      }, Effect.orDie)
  }
})
