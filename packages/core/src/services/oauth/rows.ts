import { Effect, Option, Schema, SchemaTransformation } from "effect"
import { isScope, type Scope, SCOPES } from "../../domain/credentials/scopes.js"
import { snakeStruct } from "../../storage/table.js"

/**
 * A `jsonb` column holding `schema`: the PostgreSQL driver hands it back parsed, some
 * configurations as text; both decode.
 */
export const storedJson = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  Schema.Union([schema, Schema.fromJsonString(schema)])

/** A `jsonb` list of strings. */
export const JsonStrings = storedJson(Schema.Array(Schema.String))

/** A value bound to a `jsonb` column: serialised here and typed as json by the statement. */
export const jsonb = (value: unknown): string => JSON.stringify(value)

/**
 * A stored scope list. Names the service no longer knows are dropped rather than refused, so a
 * retired scope leaves the rest of a grant usable.
 */
export const StoredScopes = JsonStrings.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.Literals(SCOPES)),
    SchemaTransformation.transform({
      decode: (names: ReadonlyArray<string>): ReadonlyArray<Scope> => names.filter(isScope),
      encode: (scopes: ReadonlyArray<Scope>): ReadonlyArray<string> => scopes
    })
  )
)

/** A `timestamptz` column, which the driver hands back as a `Date`. */
export const Timestamp = Schema.Date

/** A nullable `timestamptz` column. */
export const OptionalTimestamp = Schema.NullOr(Schema.Date)

/** The transaction's `now()`, the clock every stored expiry was set by. */
export const TransactionTime = Schema.Struct({ now: Timestamp })

/** A row of `oauth_grants`, its columns in snake_case. */
export const GrantRow = snakeStruct({
  id: Schema.Int,
  clientId: Schema.String,
  personId: Schema.Int,
  storeId: Schema.Int,
  scopes: StoredScopes,
  resource: Schema.String,
  revokedAt: OptionalTimestamp
})

/** A row of `oauth_codes`, its columns in snake_case. */
export const CodeRow = snakeStruct({
  grantId: Schema.Int,
  clientId: Schema.String,
  redirectUri: Schema.String,
  redirectUriGiven: Schema.Boolean,
  codeChallenge: Schema.String,
  expiresAt: Timestamp,
  consumedAt: OptionalTimestamp,
  outcome: Schema.NullOr(Schema.Literals(["exchanged", "revoked"]))
})

/** A row of `oauth_refresh_tokens`, its columns in snake_case. */
export const RefreshTokenRow = snakeStruct({
  id: Schema.Int,
  grantId: Schema.Int,
  clientId: Schema.String,
  expiresAt: Timestamp,
  rotatedAt: OptionalTimestamp,
  revokedAt: OptionalTimestamp
})

/** The grant and client of a stored access or refresh token. */
export const TokenHolderRow = snakeStruct({ grantId: Schema.Int, clientId: Schema.String })

/** The single row an `INSERT … RETURNING id` produces. */
export const IdRow = Schema.Struct({ id: Schema.Int })

/** The first decoded row, or `undefined`: SqlSchema's `findOneOption` as the optional the records use. */
export const orUndefined = <A, E, R>(effect: Effect.Effect<Option.Option<A>, E, R>): Effect.Effect<A | undefined, never, R> =>
  effect.pipe(Effect.map(Option.getOrUndefined), Effect.orDie)

/** A stored access token joined with its grant and the approver's membership, and the transaction's `now()`. */
export const AccessTokenRow = snakeStruct({
  grantId: Schema.Int,
  clientId: Schema.String,
  personId: Schema.Int,
  storeId: Schema.Int,
  scopes: StoredScopes,
  resource: Schema.String,
  expiresAt: Timestamp,
  revokedAt: OptionalTimestamp,
  grantRevokedAt: OptionalTimestamp,
  member: Schema.Boolean,
  grantLastUsedAt: OptionalTimestamp,
  now: Timestamp
})
