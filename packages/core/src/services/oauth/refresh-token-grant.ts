import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { decideRefresh, RefreshOutcome, type RefreshTokenRequest } from "../../domain/oauth/refresh-rotation.js"
import { hashSecret } from "../../domain/oauth/tokens.js"
import { AccessTokenSigner } from "./tokens.js"
import { makeGrantStore } from "./grant-store.js"
import { orUndefined, RefreshTokenRow } from "./rows.js"
import { makeTokenIssuance } from "./token-issuance.js"

/** Parameters of a refresh. */
export interface RefreshRequest extends RefreshTokenRequest {
  readonly refreshToken: string
}

/** The refresh-token grant (RFC 6749 §6) with rotation and reuse detection. */
export const makeRefreshTokenGrant = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const signer = yield* AccessTokenSigner
  const store = yield* makeGrantStore
  const issuance = yield* makeTokenIssuance

  // The row lock makes a concurrent use of the same token wait, then find it rotated: a reuse.
  const findToken = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: RefreshTokenRow,
    execute: (tokenHash) =>
      sql`
        SELECT id, grant_id, client_id, expires_at, rotated_at, revoked_at
        FROM oauth_refresh_tokens WHERE token_hash = ${tokenHash} FOR UPDATE`
  })

  return {
    /** Rotates a refresh token: read the token and its grant, decide, then write, in one transaction. */
    refresh: (input: RefreshRequest) =>
      Effect.flatMap(signer.signingKey, (signingKey) =>
        store.transition(Effect.gen(function*() {
          const token = yield* orUndefined(findToken(hashSecret(input.refreshToken)))
          const grant = token === undefined ? undefined : yield* store.findGrant(token.grantId)
          const outcome = decideRefresh({
            token,
            grant,
            clientMayRefresh: grant === undefined ? false : yield* issuance.clientMayRefresh(grant.clientId),
            member: grant === undefined ? false : yield* store.isMember(grant.id),
            request: input,
            agentResource: store.agentResource,
            now: yield* store.now
          })
          return yield* RefreshOutcome.$match(outcome, {
            Rotate: ({ grant, scopes, tokenId }) =>
              sql`UPDATE oauth_refresh_tokens SET rotated_at = now() WHERE id = ${tokenId}`
                .pipe(Effect.orDie, Effect.andThen(issuance.issuePair(grant, true, scopes, signingKey))),
            ReuseDetected: ({ error, grantId }) => Effect.andThen(store.revokeGrant(grantId, "refresh_reuse"), Effect.fail(error)),
            Refuse: ({ error }) => Effect.fail(error)
          })
        })))
  }
})
