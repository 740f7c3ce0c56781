import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from "jose"
import { randomBase62 } from "../../domain/credentials/api-key.js"
import { InvalidAccessToken } from "../../domain/oauth/errors.js"
import { ACCESS_TOKEN_TTL_SECONDS } from "../../domain/oauth/tokens.js"
import { jsonb, orUndefined, Timestamp } from "./rows.js"
import { Settings } from "../settings.js"
import { SecretBox } from "../credentials/secret-box.js"
import { snakeStruct } from "../../storage/table.js"

/** The claims of a connector access token. */
export interface AccessTokenClaims {
  readonly jti: string
  /** The approving person's id. */
  readonly sub: string
  readonly client_id: string
  /** The resource the token is bound to (`aud`). */
  readonly aud: string
  readonly scope: string
}

const ALG = "ES256"
const TYPE = "at+jwt"
// A signing key signs for this long, then a fresh one takes over; older keys keep
// verifying the tokens they signed until those expire.
const KEY_ROTATION_MS = 30 * 24 * 60 * 60 * 1000
const ACTIVE_KEY_CACHE_MS = 60 * 1000
// Clocks of the processes sharing a database may disagree by this much.
const CLOCK_SKEW_MS = 60 * 1000
// Keys are few (one a month); the bound only keeps a flood of forged `kid`s from mattering.
const MAX_VERIFYING_KEYS = 64

// A row of `oauth_signing_keys`. The JWK is checked as an object here; `importJWK` judges its members.
const keyFields = {
  kid: Schema.String,
  // Sealed keys are a json string (`sc1.…`); keys stored before sealing are the JWK object itself.
  privateJwk: Schema.Union([Schema.String, Schema.Record(Schema.String, Schema.Unknown)]),
  createdAt: Timestamp
}
const KeyRow = snakeStruct(keyFields)

/** A private signing key and its `kid`. */
export interface SigningKey {
  readonly kid: string
  readonly key: CryptoKey
}

interface ActiveKey extends SigningKey {
  readonly createdAt: number
  readonly checkedAt: number
}

const publicPart = (jwk: JWK): JWK => {
  const { d: _d, ...rest } = jwk
  return rest
}

/**
 * Signs and verifies connector access tokens (RFC 9068 JWTs, ES256). Keys live in the
 * database with a `kid`, so every process signs with the same key and verifies every
 * key's tokens; {@link AccessTokenSigner.rotate} starts a new key at any time, and keys
 * older than 30 days are replaced on their own. Nothing secret is published.
 */
export class AccessTokenSigner extends Context.Service<AccessTokenSigner, {
  readonly sign: (claims: AccessTokenClaims, expiresAtSeconds: number) => Effect.Effect<string>
  /**
   * The key new tokens are signed with, loaded (or created) now. Fetch it before a transaction
   * that signs, so the transaction never creates a key that a rollback would then take away.
   */
  readonly signingKey: Effect.Effect<SigningKey>
  /** Signs with a key from {@link signingKey}; touches no storage. */
  readonly signWith: (key: SigningKey, claims: AccessTokenClaims, expiresAtSeconds: number) => Effect.Effect<string>
  /** Checks signature, issuer, type and expiry; the audience is the caller's to check. */
  readonly verify: (token: string) => Effect.Effect<AccessTokenClaims, InvalidAccessToken>
  /** Starts signing with a new key; returns its `kid`. */
  readonly rotate: Effect.Effect<string>
}>()("signcraft/AccessTokenSigner") {
  static readonly layer = Layer.effect(
    AccessTokenSigner,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox
      // The private key is opened only here, where tokens are signed or verified with it.
      const jwkOf = (stored: string | Readonly<Record<string, unknown>>): JWK => {
        if (typeof stored !== "string") return stored
        const parsed: unknown = JSON.parse(box.open(stored))
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("a stored signing key is not a JWK")
        return parsed
      }
      const settings = yield* Settings
      const verifying = new Map<string, { readonly key: CryptoKey; readonly verifiesUntil: number; readonly checkedAt: number }>()
      let active: ActiveKey | undefined

      const findNewestKey = SqlSchema.findOneOption({
        Request: Schema.Void,
        Result: KeyRow,
        execute: () =>
          sql`
            SELECT kid, private_jwk, created_at FROM oauth_signing_keys
            WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1`
      })
      // A key with the moment a newer key took over from it, if one has.
      const findKey = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: snakeStruct({ ...keyFields, supersededAt: Schema.NullOr(Timestamp) }),
        execute: (kid) =>
          sql`
            SELECT k.kid, k.private_jwk, k.created_at,
              (SELECT min(n.created_at) FROM oauth_signing_keys n WHERE n.created_at > k.created_at) AS superseded_at
            FROM oauth_signing_keys k WHERE k.kid = ${kid}`
      })

      const createKey = Effect.gen(function*() {
        const { privateKey } = yield* Effect.promise(() => generateKeyPair(ALG, { extractable: true }))
        const jwk = yield* Effect.promise(() => exportJWK(privateKey))
        const kid = `k_${randomBase62(16)}`
        yield* sql`INSERT INTO oauth_signing_keys (kid, alg, private_jwk) VALUES (${kid}, ${ALG}, ${jsonb(box.seal(JSON.stringify(jwk)))}::jsonb)`
        return kid
      }).pipe(Effect.orDie)

      const loadActive = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (active !== undefined && now - active.checkedAt < ACTIVE_KEY_CACHE_MS && now - active.createdAt < KEY_ROTATION_MS) {
          return active
        }
        let row = yield* orUndefined(findNewestKey(undefined))
        if (row === undefined || now - row.createdAt.getTime() >= KEY_ROTATION_MS) {
          yield* createKey
          row = yield* orUndefined(findNewestKey(undefined))
        }
        if (row === undefined) return yield* Effect.die(new Error("no signing key after creating one"))
        const privateJwk = jwkOf(row.privateJwk)
        const key = yield* Effect.promise(() => importJWK(privateJwk, ALG))
        if (!(key instanceof CryptoKey)) return yield* Effect.die(new Error("signing key is not a CryptoKey"))
        active = { kid: row.kid, key, createdAt: row.createdAt.getTime(), checkedAt: now }
        return active
      })

      // A key verifies until no token it signed can still be live: its successor's creation, plus
      // the time a process may keep signing with a cached active key, plus an access token's life.
      // Entries are looked up again after a minute, since a newer key may appear at any time.
      const verificationKey = (kid: string) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const cached = verifying.get(kid)
          if (cached !== undefined && now - cached.checkedAt < ACTIVE_KEY_CACHE_MS) {
            return now < cached.verifiesUntil ? cached.key : undefined
          }
          const row = yield* orUndefined(findKey(kid))
          if (row === undefined) return undefined
          const key = yield* Effect.promise(() => importJWK(publicPart(jwkOf(row.privateJwk)), ALG))
          if (!(key instanceof CryptoKey)) return undefined
          const verifiesUntil = row.supersededAt === null
            ? Number.POSITIVE_INFINITY
            : row.supersededAt.getTime() + ACTIVE_KEY_CACHE_MS + ACCESS_TOKEN_TTL_SECONDS * 1000 + CLOCK_SKEW_MS
          if (verifying.size >= MAX_VERIFYING_KEYS) verifying.clear()
          verifying.set(kid, { key, verifiesUntil, checkedAt: now })
          return now < verifiesUntil ? key : undefined
        })

      const invalid = (description: string) => new InvalidAccessToken({ description })

      const signWith = ({ kid, key }: SigningKey, claims: AccessTokenClaims, expiresAtSeconds: number) =>
        Effect.promise(() =>
          new SignJWT({ client_id: claims.client_id, scope: claims.scope })
            .setProtectedHeader({ alg: ALG, kid, typ: TYPE })
            .setIssuer(settings.baseUrl)
            .setSubject(claims.sub)
            .setAudience(claims.aud)
            .setJti(claims.jti)
            .setIssuedAt()
            .setExpirationTime(expiresAtSeconds)
            .sign(key)
        )

      return AccessTokenSigner.of({
        sign: (claims, expiresAtSeconds) => Effect.flatMap(loadActive, (key) => signWith(key, claims, expiresAtSeconds)),
        signingKey: loadActive,
        signWith,
        verify: Effect.fn("AccessTokenSigner.verify")(function*(token) {
            const parts = token.split(".")
            if (parts.length !== 3) return yield* invalid("The bearer token is not a connector access token.")
            let kid: unknown
            try {
              kid = JSON.parse(Buffer.from(parts[0] ?? "", "base64url").toString("utf8")).kid
            } catch {
              return yield* invalid("The bearer token is malformed.")
            }
            if (typeof kid !== "string") return yield* invalid("The bearer token names no signing key.")
            const key = yield* verificationKey(kid)
            if (key === undefined) return yield* invalid("The bearer token was not signed by this server.")
            const result = yield* Effect.tryPromise({
              try: () => jwtVerify(token, key, { issuer: settings.baseUrl, algorithms: [ALG], typ: TYPE }),
              catch: () => invalid("The bearer token is invalid or expired.")
            })
            const { jti, sub, aud, client_id, scope } = result.payload
            if (
              typeof jti !== "string" || typeof sub !== "string" || typeof aud !== "string" ||
              typeof client_id !== "string" || typeof scope !== "string"
            ) {
              return yield* invalid("The bearer token lacks required claims.")
            }
            return { jti, sub, aud, client_id, scope }
          }),
        rotate: Effect.gen(function*() {
          const kid = yield* createKey
          active = undefined
          return kid
        })
      })
    })
  ).pipe(Layer.provide(SecretBox.layer))
}
