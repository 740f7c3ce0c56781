import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBase62 } from "../domain/api-key.js"
import { NotFound } from "../domain/errors.js"
import type { AuthorizationRequest } from "../domain/oauth/authorization-request.js"
import { InvalidAccessToken, OAuthError } from "../domain/oauth/errors.js"
import { agentLocation } from "../domain/oauth/metadata.js"
import { verifyS256 } from "../domain/oauth/pkce.js"
import { canonicalResource, checkResource } from "../domain/oauth/resource.js"
import { formatScopes, parseScopeParam } from "../domain/oauth/scope-param.js"
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  hashSecret,
  newSecret,
  REFRESH_TOKEN_TTL_SECONDS
} from "../domain/oauth/tokens.js"
import { isScope, type Scope } from "../domain/scopes.js"
import { AccessTokenSigner, type SigningKey } from "./oauth-tokens.js"
import { OAuthClients } from "./oauth-clients.js"
import { Settings } from "./settings.js"

/** The RFC 6749 §5.1 token response. */
export interface TokenResponse {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token?: string
  readonly scope: string
}

/** Who is calling the agent endpoint, from a verified connector token. */
export interface AgentPrincipal {
  readonly grantId: number
  readonly clientId: string
  readonly personId: number
  /** The Store comes from the token only. */
  readonly storeId: number
  readonly scopes: ReadonlyArray<Scope>
}

/** A live connection as the operator API lists it. */
export interface Connection {
  readonly id: number
  readonly client_id: string
  readonly client_name: string | null
  readonly person_id: number
  readonly scopes: ReadonlyArray<Scope>
  readonly created_at: Date
}

/** Why a grant was revoked. */
export type RevocationReason = "merchant" | "client" | "code_reuse" | "refresh_reuse"

/** Parameters of an authorization-code exchange. */
export interface CodeExchange {
  readonly clientId: string
  readonly code: string
  readonly codeVerifier: string | undefined
  readonly redirectUri: string | undefined
  readonly resources: ReadonlyArray<string>
}

/** Parameters of a refresh. */
export interface RefreshRequest {
  readonly clientId: string
  readonly refreshToken: string
  readonly scope: string | undefined
  readonly resources: ReadonlyArray<string>
}

const scopesOf = (value: ReadonlyArray<string>): ReadonlyArray<Scope> => value.filter(isScope)

const invalidGrant = (description: string) => new OAuthError({ error: "invalid_grant", description })

/**
 * Connector grants (connections) and everything issued under them: authorization codes,
 * access tokens and refresh tokens, with the spec's transitions (service spec, "States
 * and transitions"): single-use codes revoked by any failed exchange, refresh rotation
 * with reuse detection, pair revocation, merchant revocation, and the per-request check
 * of signature, stored expiry, resource binding and membership.
 */
export class OAuthGrants extends Context.Service<OAuthGrants, {
  /** Records the person's approval and issues a code for it. */
  readonly approve: (
    request: AuthorizationRequest,
    personId: number,
    storeId: number,
    scopes: ReadonlyArray<Scope>
  ) => Effect.Effect<string>
  readonly exchangeCode: (input: CodeExchange) => Effect.Effect<TokenResponse, OAuthError>
  readonly refresh: (input: RefreshRequest) => Effect.Effect<TokenResponse, OAuthError>
  /** RFC 7009: revokes the grant of a token issued to `clientId`; unknown tokens change nothing. */
  readonly revokeToken: (clientId: string, token: string) => Effect.Effect<void>
  /** Verifies an agent request's bearer token for `resource`. */
  readonly authenticate: (token: string, resource: string) => Effect.Effect<AgentPrincipal, InvalidAccessToken>
  readonly listConnections: (storeId: number) => Effect.Effect<ReadonlyArray<Connection>>
  /** The merchant revokes a connection: every token and unexchanged code of it. */
  readonly revokeConnection: (grantId: number) => Effect.Effect<void, NotFound>
  readonly prune: Effect.Effect<void>
}>()("signcraft/OAuthGrants") {
  static readonly layer = Layer.effect(
    OAuthGrants,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* Settings
      const signer = yield* AccessTokenSigner
      const clients = yield* OAuthClients
      const agentResource = agentLocation(settings.baseUrl, settings.mcpUrl).resource

      const isMember = (grantId: number) =>
        sql<{ member: boolean }>`
          SELECT EXISTS (
            SELECT 1 FROM oauth_grants g JOIN stores s ON s.id = g.store_id
            JOIN memberships m ON m.company_id = s.company_id AND m.person_id = g.person_id
            WHERE g.id = ${grantId}) AS member`.pipe(Effect.map((rows) => rows[0]?.member === true))

      const revokeGrant = (grantId: number, reason: RevocationReason) =>
        sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql`
            UPDATE oauth_grants SET revoked_at = now(), revoked_reason = ${reason}
            WHERE id = ${grantId} AND revoked_at IS NULL RETURNING id`
          yield* sql`UPDATE oauth_access_tokens SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`
          yield* sql`UPDATE oauth_refresh_tokens SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`
          yield* sql`
            UPDATE oauth_codes SET consumed_at = now(), outcome = 'revoked'
            WHERE grant_id = ${grantId} AND consumed_at IS NULL`
          return rows.length > 0
        })).pipe(Effect.orDie)

      /**
       * Runs one token-endpoint state change as ONE transaction, so a crash half-way leaves the
       * old state intact (the code unexchanged, the refresh token unrotated). A refusal must still
       * commit what it changed (a claimed code, a reuse revocation): it leaves the transaction as
       * a value and fails only after the commit.
       */
      const transition = <A>(change: Effect.Effect<A, OAuthError>): Effect.Effect<A, OAuthError> =>
        change.pipe(Effect.result, sql.withTransaction, Effect.orDie, Effect.flatMap(Effect.fromResult))

      const issuePair = (
        grant: { readonly id: number; readonly client_id: string; readonly person_id: number; readonly resource: string },
        withRefresh: boolean,
        scopes: ReadonlyArray<Scope>,
        signingKey: SigningKey
      ) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          let refreshToken: string | undefined
          let refreshId: number | null = null
          if (withRefresh) {
            refreshToken = newSecret("sc_rt_")
            const rows = yield* sql<{ id: number }>`
              INSERT INTO oauth_refresh_tokens (token_hash, grant_id, client_id, expires_at)
              VALUES (${hashSecret(refreshToken)}, ${grant.id}, ${grant.client_id},
                now() + make_interval(secs => ${REFRESH_TOKEN_TTL_SECONDS}))
              RETURNING id`
            refreshId = rows[0]?.id ?? null
          }
          const jti = `at_${randomBase62(24)}`
          const expiresAt = Math.floor(now / 1000) + ACCESS_TOKEN_TTL_SECONDS
          const scope = formatScopes(scopes)
          yield* sql`
            INSERT INTO oauth_access_tokens (jti, grant_id, refresh_token_id, client_id, scopes, resource, expires_at)
            VALUES (${jti}, ${grant.id}, ${refreshId}, ${grant.client_id}, ${JSON.stringify(scopes)}, ${grant.resource},
              now() + make_interval(secs => ${ACCESS_TOKEN_TTL_SECONDS}))`
          const accessToken = yield* signer.signWith(
            signingKey,
            { jti, sub: String(grant.person_id), client_id: grant.client_id, aud: grant.resource, scope },
            expiresAt
          )
          yield* clients.markUsed(grant.client_id)
          const response: TokenResponse = {
            access_token: accessToken,
            token_type: "Bearer",
            expires_in: ACCESS_TOKEN_TTL_SECONDS,
            ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
            scope
          }
          return response
        }).pipe(Effect.orDie)

      interface GrantRow {
        readonly id: number
        readonly client_id: string
        readonly person_id: number
        readonly store_id: number
        readonly scopes: ReadonlyArray<string>
        readonly resource: string
        readonly revoked_at: Date | null
      }

      const findGrant = (grantId: number) =>
        sql<GrantRow>`
          SELECT id, client_id, person_id, store_id, scopes, resource, revoked_at FROM oauth_grants WHERE id = ${grantId}`
          .pipe(Effect.orDie, Effect.map((rows) => rows[0]))

      const withRefresh = (clientId: string) =>
        Effect.map(clients.find(clientId), (client) => client?.grant_types.includes("refresh_token") === true)

      const exchangeCode = (input: CodeExchange) =>
        Effect.flatMap(signer.signingKey, (signingKey) => transition(Effect.gen(function*() {
          const codeHash = hashSecret(input.code)
          // Claim the code first: a concurrent exchange waits on the row, then finds it consumed. Any
          // answer commits the claim, so it is never usable again; only a crash rolls it back.
          const claimed = yield* sql<{
            grant_id: number
            client_id: string
            redirect_uri: string
            redirect_uri_given: boolean
            code_challenge: string
            expired: boolean
          }>`
            UPDATE oauth_codes SET consumed_at = now()
            WHERE code_hash = ${codeHash} AND consumed_at IS NULL
            RETURNING grant_id, client_id, redirect_uri, redirect_uri_given, code_challenge, expires_at <= now() AS expired`
            .pipe(Effect.orDie)
          const code = claimed[0]
          if (code === undefined) {
            const seen = yield* sql<{ grant_id: number; outcome: string | null }>`
              SELECT grant_id, outcome FROM oauth_codes WHERE code_hash = ${codeHash}`.pipe(Effect.orDie)
            const previous = seen[0]
            // A replayed code that was exchanged means it leaked: revoke what it produced (RFC 9700 §4.2.4).
            if (previous?.outcome === "exchanged") yield* revokeGrant(previous.grant_id, "code_reuse")
            return yield* invalidGrant("The authorization code is invalid, expired or already used.")
          }
          const refuse = (error: OAuthError) =>
            sql`UPDATE oauth_codes SET outcome = 'revoked' WHERE code_hash = ${codeHash}`.pipe(
              Effect.orDie,
              Effect.andThen(Effect.fail(error))
            )
          if (code.client_id !== input.clientId) return yield* refuse(invalidGrant("The code was issued to another client."))
          if (code.expired) return yield* refuse(invalidGrant("The authorization code has expired."))
          if (input.redirectUri !== undefined ? input.redirectUri !== code.redirect_uri : code.redirect_uri_given) {
            return yield* refuse(invalidGrant("redirect_uri does not match the authorization request."))
          }
          if (input.codeVerifier === undefined || !verifyS256(input.codeVerifier, code.code_challenge)) {
            return yield* refuse(invalidGrant("The code_verifier does not match the code_challenge."))
          }
          const grant = yield* findGrant(code.grant_id)
          const resource = checkResource(input.resources, agentResource)
          if (resource._tag === "InvalidTarget") {
            return yield* refuse(new OAuthError({ error: "invalid_target", description: resource.detail }))
          }
          if (grant === undefined || grant.revoked_at !== null) return yield* refuse(invalidGrant("The grant was revoked."))
          if (!(yield* isMember(grant.id).pipe(Effect.orDie))) {
            return yield* refuse(invalidGrant("The approving person no longer belongs to the Store's company."))
          }
          yield* sql`UPDATE oauth_codes SET outcome = 'exchanged' WHERE code_hash = ${codeHash}`.pipe(Effect.orDie)
          return yield* issuePair(grant, yield* withRefresh(grant.client_id), scopesOf(grant.scopes), signingKey)
        })))

      const refresh = (input: RefreshRequest) =>
        Effect.flatMap(signer.signingKey, (signingKey) => transition(Effect.gen(function*() {
          const tokenHash = hashSecret(input.refreshToken)
          const rows = yield* sql<{
            id: number
            grant_id: number
            client_id: string
            rotated: boolean
            revoked: boolean
            expired: boolean
          }>`
            SELECT id, grant_id, client_id, rotated_at IS NOT NULL AS rotated, revoked_at IS NOT NULL AS revoked,
              expires_at <= now() AS expired
            FROM oauth_refresh_tokens WHERE token_hash = ${tokenHash}`.pipe(Effect.orDie)
          const token = rows[0]
          if (token === undefined || token.client_id !== input.clientId) {
            return yield* invalidGrant("The refresh token is invalid.")
          }
          if (token.rotated) {
            yield* revokeGrant(token.grant_id, "refresh_reuse")
            return yield* invalidGrant("The refresh token was already used; the grant is revoked.")
          }
          if (token.revoked || token.expired) return yield* invalidGrant("The refresh token is revoked or expired.")
          const grant = yield* findGrant(token.grant_id)
          if (grant === undefined || grant.revoked_at !== null) return yield* invalidGrant("The grant was revoked.")
          if (!(yield* withRefresh(grant.client_id))) {
            return yield* new OAuthError({ error: "unauthorized_client", description: "The client did not register refresh_token." })
          }
          const resource = checkResource(input.resources, agentResource)
          if (resource._tag === "InvalidTarget") {
            return yield* new OAuthError({ error: "invalid_target", description: resource.detail })
          }
          // The stored binding must still name this deployment's agent resource.
          if (canonicalResource(grant.resource) !== canonicalResource(agentResource)) {
            return yield* invalidGrant("The grant is bound to another resource.")
          }
          const granted = scopesOf(grant.scopes)
          let scopes = granted
          if (input.scope !== undefined) {
            const parsed = parseScopeParam(input.scope)
            if (parsed._tag === "Unknown" || parsed.scopes.some((scope) => !granted.includes(scope))) {
              return yield* new OAuthError({ error: "invalid_scope", description: "A refresh may only narrow the granted scopes." })
            }
            scopes = parsed.scopes
          }
          if (!(yield* isMember(grant.id).pipe(Effect.orDie))) {
            return yield* invalidGrant("The approving person no longer belongs to the Store's company.")
          }
          const rotated = yield* sql`
            UPDATE oauth_refresh_tokens SET rotated_at = now()
            WHERE id = ${token.id} AND rotated_at IS NULL AND revoked_at IS NULL RETURNING id`.pipe(Effect.orDie)
          if (rotated.length === 0) {
            // Another request rotated it in between: that is a reuse too.
            yield* revokeGrant(grant.id, "refresh_reuse")
            return yield* invalidGrant("The refresh token was already used; the grant is revoked.")
          }
          return yield* issuePair(grant, true, scopes, signingKey)
        })))

      const revokeToken = (clientId: string, token: string) =>
        Effect.gen(function*() {
          let grantId: number | undefined
          if (token.split(".").length === 3) {
            const claims = yield* signer.verify(token).pipe(Effect.option)
            if (claims._tag === "Some") {
              const rows = yield* sql<{ grant_id: number; client_id: string }>`
                SELECT grant_id, client_id FROM oauth_access_tokens WHERE jti = ${claims.value.jti}`.pipe(Effect.orDie)
              if (rows[0]?.client_id === clientId) grantId = rows[0].grant_id
            }
          } else {
            const rows = yield* sql<{ grant_id: number; client_id: string }>`
              SELECT grant_id, client_id FROM oauth_refresh_tokens WHERE token_hash = ${hashSecret(token)}`.pipe(Effect.orDie)
            if (rows[0]?.client_id === clientId) grantId = rows[0].grant_id
          }
          if (grantId !== undefined) yield* revokeGrant(grantId, "client")
        }).pipe(sql.withTransaction, Effect.orDie)

      const authenticate = (token: string, resource: string) =>
        Effect.gen(function*() {
          const claims = yield* signer.verify(token)
          const invalid = (description: string) => new InvalidAccessToken({ description })
          const rows = yield* sql<{
            grant_id: number
            client_id: string
            person_id: number
            store_id: number
            scopes: ReadonlyArray<string>
            resource: string
            live: boolean
            token_revoked: boolean
            grant_revoked: boolean
            member: boolean
          }>`
            SELECT a.grant_id, a.client_id, g.person_id, g.store_id, a.scopes, a.resource,
              a.expires_at > now() AS live, a.revoked_at IS NOT NULL AS token_revoked,
              g.revoked_at IS NOT NULL AS grant_revoked,
              EXISTS (SELECT 1 FROM memberships m JOIN stores s ON s.company_id = m.company_id
                      WHERE s.id = g.store_id AND m.person_id = g.person_id) AS member
            FROM oauth_access_tokens a JOIN oauth_grants g ON g.id = a.grant_id
            WHERE a.jti = ${claims.jti}`.pipe(Effect.orDie)
          const row = rows[0]
          if (row === undefined) return yield* invalid("The access token is unknown.")
          if (row.token_revoked || row.grant_revoked) return yield* invalid("The access token was revoked.")
          if (!row.live) return yield* invalid("The access token has expired.")
          const expected = canonicalResource(resource)
          if (canonicalResource(row.resource) !== expected || canonicalResource(claims.aud) !== expected) {
            return yield* invalid("The access token is bound to another resource.")
          }
          if (!row.member) return yield* invalid("The approving person no longer belongs to the Store's company.")
          return {
            grantId: row.grant_id,
            clientId: row.client_id,
            personId: row.person_id,
            storeId: row.store_id,
            scopes: scopesOf(row.scopes)
          }
        })

      return OAuthGrants.of({
        approve: (request, personId, storeId, scopes) =>
          Effect.gen(function*() {
            const code = newSecret("sc_code_")
            yield* sql.withTransaction(Effect.gen(function*() {
              const rows = yield* sql<{ id: number }>`
                INSERT INTO oauth_grants ${
                sql.insert({
                  client_id: request.clientId,
                  person_id: personId,
                  store_id: storeId,
                  scopes: JSON.stringify(scopes),
                  resource: request.resource
                })
              } RETURNING id`
              const grantId = rows[0]?.id
              if (grantId === undefined) return yield* Effect.die(new Error("grant insert returned no row"))
              yield* sql`
                INSERT INTO oauth_codes
                  (code_hash, grant_id, client_id, redirect_uri, redirect_uri_given, code_challenge, expires_at)
                VALUES (${hashSecret(code)}, ${grantId}, ${request.clientId}, ${request.redirectUri},
                  ${request.redirectUriGiven}, ${request.codeChallenge},
                  now() + make_interval(secs => ${AUTHORIZATION_CODE_TTL_SECONDS}))`
            })).pipe(Effect.orDie)
            return code
          }),
        exchangeCode,
        refresh,
        revokeToken,
        authenticate,
        listConnections: (storeId) =>
          sql<{
            id: number
            client_id: string
            client_name: string | null
            person_id: number
            scopes: ReadonlyArray<string>
            created_at: Date
          }>`
            SELECT g.id, g.client_id, c.client_name, g.person_id, g.scopes, g.created_at
            FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
            WHERE g.store_id = ${storeId} AND g.revoked_at IS NULL AND (
              EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.grant_id = g.id
                      AND r.revoked_at IS NULL AND r.rotated_at IS NULL AND r.expires_at > now())
              OR EXISTS (SELECT 1 FROM oauth_access_tokens a WHERE a.grant_id = g.id
                      AND a.revoked_at IS NULL AND a.expires_at > now())
              OR EXISTS (SELECT 1 FROM oauth_codes k WHERE k.grant_id = g.id
                      AND k.consumed_at IS NULL AND k.expires_at > now()))
            ORDER BY g.id`.pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map((row) => ({ ...row, scopes: scopesOf(row.scopes) })))
          ),
        revokeConnection: (grantId) =>
          Effect.flatMap(revokeGrant(grantId, "merchant"), (revoked) =>
            revoked ? Effect.void : Effect.fail(new NotFound({ resource: "connection" }))),
        prune: Effect.gen(function*() {
          // Expired rows serve no check any more; a day's grace keeps replays recognisable.
          yield* sql`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`
          yield* sql`DELETE FROM oauth_access_tokens WHERE expires_at < now() - interval '1 day'`
          yield* sql`DELETE FROM oauth_refresh_tokens WHERE expires_at < now() - interval '1 day'`
        }).pipe(Effect.orDie)
      })
    })
  )
}
