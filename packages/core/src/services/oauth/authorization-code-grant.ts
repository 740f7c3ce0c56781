import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { AuthorizationRequest } from "../../domain/oauth/authorization-request.js"
import { type CodeExchangeRequest, CodeExchangeOutcome, decideCodeExchange } from "../../domain/oauth/code-exchange.js"
import { AUTHORIZATION_CODE_TTL_SECONDS, hashSecret, newSecret } from "../../domain/oauth/tokens.js"
import type { Scope } from "../../domain/credentials/scopes.js"
import { AccessTokenSigner } from "./tokens.js"
import { unionOfScopes } from "../../domain/oauth/grant.js"
import { makeConnections } from "./connections.js"
import { makeGrantStore } from "./grant-store.js"
import { CodeRow, IdRow, jsonb, orUndefined } from "./rows.js"
import { makeTokenIssuance } from "./token-issuance.js"

/** Parameters of an authorization-code exchange. */
export interface CodeExchange extends CodeExchangeRequest {
  readonly code: string
}

/**
 * The authorization-code grant (RFC 6749 §4.1): the person's approval issues a code, and the
 * client exchanges it once for tokens.
 */
export const makeAuthorizationCodeGrant = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const signer = yield* AccessTokenSigner
  const store = yield* makeGrantStore
  const issuance = yield* makeTokenIssuance
  const connections = yield* makeConnections

  // Grants of the same client, person and Store made before this one, still unrevoked.
  const findEarlierGrants = SqlSchema.findAll({
    Request: Schema.Int,
    Result: IdRow,
    execute: (grantId) =>
      sql`
        SELECT e.id FROM oauth_grants e JOIN oauth_grants g
          ON g.client_id = e.client_id AND g.person_id = e.person_id AND g.store_id = e.store_id
        WHERE g.id = ${grantId} AND e.id < g.id AND e.revoked_at IS NULL`
  })

  // Incremental consent: the grant now in use replaces the client's earlier ones on the Store.
  const revokeEarlierGrants = (grantId: number) =>
    Effect.gen(function*() {
      const earlier = yield* findEarlierGrants(grantId).pipe(Effect.orDie)
      for (const grant of earlier) yield* store.revokeGrant(grant.id, "superseded")
    })

  // The row lock makes a concurrent exchange of the same code wait, then find it consumed.
  const findCode = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: CodeRow,
    execute: (codeHash) =>
      sql`
        SELECT grant_id, client_id, redirect_uri, redirect_uri_given, code_challenge, expires_at, consumed_at, outcome
        FROM oauth_codes WHERE code_hash = ${codeHash} FOR UPDATE`
  })

  const insertGrant = SqlSchema.findOne({
    Request: Schema.Struct({
      clientId: Schema.String,
      personId: Schema.Int,
      storeId: Schema.Int,
      scopes: Schema.Array(Schema.String),
      resource: Schema.String
    }),
    Result: IdRow,
    execute: (grant) =>
      sql`
        INSERT INTO oauth_grants (client_id, person_id, store_id, scopes, resource)
        VALUES (${grant.clientId}, ${grant.personId}, ${grant.storeId}, ${jsonb(grant.scopes)}::jsonb, ${grant.resource})
        RETURNING id`
  })

  /** Ends the code: it is never usable again, whatever the answer. */
  const consumeCode = (codeHash: string, outcome: "exchanged" | "revoked") =>
    sql`UPDATE oauth_codes SET consumed_at = now(), outcome = ${outcome} WHERE code_hash = ${codeHash}`.pipe(Effect.orDie)

  return {
    /**
     * Records the person's approval (the grant) and issues a code for it, in one transaction. When
     * the client already holds a live grant from this person on this Store, the new one holds the
     * union (incremental consent); the earlier grant ends when the code is exchanged.
     */
    approve: Effect.fn("OAuthGrants.approve")(function*(request: AuthorizationRequest, personId: number, storeId: number, scopes: ReadonlyArray<Scope>) {
        const code = newSecret("sc_code_")
        yield* sql.withTransaction(Effect.gen(function*() {
          const earlier = yield* connections.liveGrantsFor(request.clientId, personId, storeId)
          const grant = yield* insertGrant({
            clientId: request.clientId,
            personId,
            storeId,
            scopes: unionOfScopes(earlier.map((e) => e.scopes), scopes),
            resource: request.resource
          })
          yield* sql`
            INSERT INTO oauth_codes
              (code_hash, grant_id, client_id, redirect_uri, redirect_uri_given, code_challenge, expires_at)
            VALUES (${hashSecret(code)}, ${grant.id}, ${request.clientId}, ${request.redirectUri},
              ${request.redirectUriGiven}, ${request.codeChallenge},
              now() + make_interval(secs => ${AUTHORIZATION_CODE_TTL_SECONDS}))`
        })).pipe(Effect.orDie)
        return code
      }),

    /** Exchanges a code for tokens: read the code and its grant, decide, then write, in one transaction. */
    exchangeCode: (input: CodeExchange) =>
      Effect.flatMap(signer.signingKey, (signingKey) =>
        store.transition(Effect.gen(function*() {
          const codeHash = hashSecret(input.code)
          const code = yield* orUndefined(findCode(codeHash))
          const grant = code === undefined ? undefined : yield* store.findGrant(code.grantId)
          const member = grant === undefined ? false : yield* store.isMember(grant.id)
          const outcome = decideCodeExchange({
            code,
            grant,
            member,
            request: input,
            agentResource: store.agentResource,
            now: yield* store.now
          })
          return yield* CodeExchangeOutcome.$match(outcome, {
            Exchange: ({ grant }) =>
              consumeCode(codeHash, "exchanged").pipe(
                Effect.andThen(revokeEarlierGrants(grant.id)),
                Effect.andThen(issuance.clientMayRefresh(grant.clientId)),
                Effect.flatMap((withRefresh) => issuance.issuePair(grant, withRefresh, grant.scopes, signingKey))
              ),
            Refuse: ({ error }) => Effect.andThen(consumeCode(codeHash, "revoked"), Effect.fail(error)),
            Replay: ({ error, grantId }) => Effect.andThen(store.revokeGrant(grantId, "code_reuse"), Effect.fail(error)),
            Unknown: ({ error }) => Effect.fail(error)
          })
        })))
  }
})
