import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { displayPrefix, generateApiKey, hashApiKey, isJwtShaped, type KeyMode, parseApiKey } from "../../domain/credentials/api-key.js"
import { InvalidCredential, NotFound } from "../../domain/errors.js"
import { lastUseIsStale } from "../../domain/credentials/last-used.js"
import { type Grant, isScope, type Scope } from "../../domain/credentials/scopes.js"
import {
  decodeFirstRow,
  decodeRows,
  decodeSingleRow,
  InsertedId,
  isStorableId,
  JsonColumn,
  jsonParam,
  RowId,
  RowTimestamp
} from "../../storage/rows.js"
import type { ApiKeyPrincipal } from "../../domain/credentials/principal.js"
import { snakeStruct } from "../../storage/table.js"
import type { ApiKeyRecord } from "../../domain/credentials/api-key-record.js"

export type { ApiKeyRecord } from "../../domain/credentials/api-key-record.js"

export type { ApiKeyPrincipal } from "../../domain/credentials/principal.js"

/** A key as the operator API shows it; `key` (the secret) only at creation. */
export interface IssuedApiKey {
  readonly id: number
  readonly storeId: number
  readonly key: string
  readonly mode: KeyMode
  readonly grant: Grant
  readonly expiresAt: Date | null
}

const ScopesDocument = Schema.Array(Schema.String)

const KeyRow = snakeStruct({
  id: RowId,
  storeId: RowId,
  mode: Schema.Literals(["live", "test"]),
  scopes: JsonColumn(ScopesDocument),
  legacyWildcard: Schema.Boolean,
  expiresAt: Schema.NullOr(RowTimestamp),
  revokedAt: Schema.NullOr(RowTimestamp),
  lastUsedAt: Schema.NullOr(RowTimestamp),
  companyId: RowId,
  storeName: Schema.String,
  platform: Schema.String,
  currency: Schema.String
})
type KeyRow = typeof KeyRow.Type

const ListedKeyRow = snakeStruct({
  id: RowId,
  keyPrefix: Schema.String,
  mode: Schema.Literals(["live", "test"]),
  scopes: JsonColumn(ScopesDocument),
  legacyWildcard: Schema.Boolean,
  createdAt: RowTimestamp,
  lastUsedAt: Schema.NullOr(RowTimestamp),
  expiresAt: Schema.NullOr(RowTimestamp)
})
const listedKeys = decodeRows(ListedKeyRow)

const firstKey = decodeFirstRow(KeyRow)
const firstRevoked = decodeFirstRow(snakeStruct({ keyHash: Schema.String }))

// A verified key is trusted for this long without asking the database again; the key's Store
// rides along under the same bound. Every process caches, so `revoke` returns only once this
// bound has passed since its commit: by then no process trusts a verification from before it.
const CACHE_TTL_MS = 1000
const CACHE_LIMIT = 10_000

const toGrant = (row: { readonly legacyWildcard: boolean; readonly scopes: ReadonlyArray<string> }): Grant =>
  row.legacyWildcard ? { _tag: "LegacyWildcard" } : { _tag: "Scoped", scopes: row.scopes.filter(isScope) }

const toPrincipal = (row: KeyRow): ApiKeyPrincipal => ({
  keyId: row.id,
  storeId: row.storeId,
  mode: row.mode,
  grant: toGrant(row),
  store: {
    id: row.storeId,
    companyId: row.companyId,
    name: row.storeName,
    platform: row.platform,
    currency: row.currency
  }
})

interface CachedKey {
  readonly principal: ApiKeyPrincipal
  readonly verified: Effect.Effect<ApiKeyPrincipal>
  readonly until: number
}

/** API keys: issuing, verifying (with a short cache on the hot path) and revoking. */
export class Credentials extends Context.Service<Credentials, {
  /** Issues a key; with `expiresAt` it answers 401 from that instant on. */
  readonly issue: (
    storeId: number,
    mode: KeyMode,
    grant: Grant,
    options?: { readonly expiresAt?: Date }
  ) => Effect.Effect<IssuedApiKey>
  readonly verify: (presented: string) => Effect.Effect<ApiKeyPrincipal, InvalidCredential>
  /**
   * {@link verify} when the key was verified within the cache bound, at time `now`;
   * nothing otherwise (then call `verify`). For hot paths that would rather not build an effect.
   */
  readonly verifiedUnsafe: (presented: string, now: number) => ApiKeyPrincipal | undefined
  /**
   * Revokes a key. It returns once every process of the deployment refuses the key: after the
   * cache bound has passed since the commit (about a second), with no cost to the hot path.
   */
  readonly revoke: (keyId: number) => Effect.Effect<void, NotFound>
  /** The Store's keys that still work (not revoked), oldest first. */
  readonly listForStore: (storeId: number) => Effect.Effect<ReadonlyArray<ApiKeyRecord>>
  /** {@link revoke}, for a key of that Store only: another Store's key is not found. */
  readonly revokeForStore: (storeId: number, keyId: number) => Effect.Effect<void, NotFound>
}>()("signcraft/Credentials") {
  static readonly layer = Layer.effect(
    Credentials,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Keyed by the key's hash, the same as the table, never by the secret itself.
      const cache = new Map<string, CachedKey>()

      const invalid = (reason: InvalidCredential["reason"]) => new InvalidCredential({ kind: "api_key", reason })

      const lookup = (hash: string, now: number) =>
        Effect.gen(function*() {
          // Every key belongs to a store (a foreign key), so the join never drops a key.
          const found = yield* sql`
            SELECT k.id, k.store_id, k.mode, k.scopes, k.legacy_wildcard, k.expires_at, k.revoked_at, k.last_used_at,
              s.company_id, s.name AS store_name, s.platform, s.currency
            FROM api_keys k JOIN stores s ON s.id = k.store_id
            WHERE k.key_hash = ${hash}`.pipe(Effect.orDie, Effect.flatMap(firstKey))
          if (found._tag === "None") return yield* invalid("unknown")
          const row = found.value
          if (row.revokedAt !== null) return yield* invalid("revoked")
          if (row.expiresAt !== null && row.expiresAt.getTime() <= now) return yield* invalid("expired")
          const principal = toPrincipal(row)
          // A cache miss at most once a second per key, and a write at most once a minute.
          if (lastUseIsStale(row.lastUsedAt, new Date(now))) {
            yield* sql`UPDATE api_keys SET last_used_at = now() WHERE id = ${row.id}`.pipe(Effect.orDie)
          }
          if (cache.size >= CACHE_LIMIT) cache.clear()
          // Never trusted past its own expiry, however fresh the cache entry.
          const until = Math.min(now + CACHE_TTL_MS, row.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY)
          cache.set(hash, { principal, verified: Effect.succeed(principal), until })
          return principal
        })

      const revokeWhere = (keyId: number, storeId: number | undefined) =>
        Effect.gen(function*() {
          if (!isStorableId(keyId)) return yield* new NotFound({ resource: "API key" })
          const revoked = yield* sql`
            UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
            WHERE id = ${keyId} ${storeId === undefined ? sql`` : sql`AND store_id = ${storeId}`}
            RETURNING key_hash`.pipe(Effect.orDie, Effect.flatMap(firstRevoked))
          if (revoked._tag === "None") return yield* new NotFound({ resource: "API key" })
          cache.delete(revoked.value.keyHash)
          // Another process may have verified the key just before the commit; its cache entry
          // lives at most CACHE_TTL_MS from a time taken before its read, so it is gone by now.
          yield* Effect.sleep(CACHE_TTL_MS)
        })

      return Credentials.of({
        issue: Effect.fn("Credentials.issue")(function*(storeId, mode, grant, options = {}) {
            const key = generateApiKey(mode)
            const scopes: ReadonlyArray<Scope> = grant._tag === "Scoped" ? grant.scopes : []
            const rows = yield* sql`
              INSERT INTO api_keys ${
              sql.insert({
                store_id: storeId,
                mode,
                scopes: jsonParam(ScopesDocument, scopes),
                legacy_wildcard: grant._tag === "LegacyWildcard",
                key_hash: hashApiKey(key),
                key_prefix: displayPrefix(key),
                expires_at: options.expiresAt ?? null
              })
            }
              RETURNING id`.pipe(Effect.orDie)
            const { id } = yield* decodeSingleRow(InsertedId)(rows)
            return { id, storeId, key, mode, grant, expiresAt: options.expiresAt ?? null }
          }),
        // Only keys that passed `verify` are cached, so no format check is needed here.
        verifiedUnsafe: (presented, now) => {
          const cached = cache.get(hashApiKey(presented))
          return cached !== undefined && cached.until > now ? cached.principal : undefined
        },
        // On the hot path: a cache hit allocates no effect of its own.
        verify: (presented) =>
          Clock.clockWith((clock) => {
            if (parseApiKey(presented) === undefined) {
              return Effect.fail(invalid(isJwtShaped(presented) ? "connector_token" : "malformed"))
            }
            const hash = hashApiKey(presented)
            const now = clock.currentTimeMillisUnsafe()
            const cached = cache.get(hash)
            if (cached !== undefined && cached.until > now) return cached.verified
            return lookup(hash, now)
          }),
        revoke: (keyId) => revokeWhere(keyId, undefined),
        listForStore: (storeId) =>
          sql`
            SELECT id, key_prefix, mode, scopes, legacy_wildcard, created_at, last_used_at, expires_at
            FROM api_keys WHERE store_id = ${storeId} AND revoked_at IS NULL ORDER BY id`.pipe(
            Effect.orDie,
            Effect.flatMap(listedKeys),
            Effect.orDie,
            Effect.map((rows) =>
              rows.map((row): ApiKeyRecord => ({
                id: row.id,
                prefix: row.keyPrefix,
                mode: row.mode,
                grant: toGrant(row),
                createdAt: row.createdAt,
                lastUsedAt: row.lastUsedAt,
                expiresAt: row.expiresAt
              }))
            )
          ),
        revokeForStore: (storeId, keyId) => revokeWhere(keyId, storeId)
      })
    })
  )
}
