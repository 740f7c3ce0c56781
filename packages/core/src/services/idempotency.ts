import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { IdempotencyKeyConflict, IdempotencyKeyInFlight } from "../domain/errors.js"
import { decodeFirstRow, JsonColumn, jsonParam, RowNumber, RowTimestamp } from "../storage/rows.js"
import { SecretBox } from "./secret-box.js"

/** A response kept for replay. */
export interface StoredResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What to do with a request that carries an `Idempotency-Key`. */
export type Claim =
  | { readonly _tag: "Proceed" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }

/** The identity of one idempotent request. */
export interface IdempotentRequest {
  readonly storeId: number
  readonly key: string
  readonly method: string
  readonly path: string
  readonly fingerprint: string
}

/** Keys are kept for a day at least, as the contract promises clients. */
export const RETENTION_MS = 24 * 60 * 60 * 1000
// The first request holds its key this long; a request still unfinished after it is
// presumed crashed and the key may be claimed again.
const LOCK_MS = 60_000

const HeadersDocument = Schema.Record(Schema.String, Schema.String)

const KeyRow = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  fingerprint: Schema.String,
  state: Schema.Literals(["in_flight", "completed"]),
  lockedUntil: Schema.NullOr(RowTimestamp),
  responseStatus: Schema.NullOr(RowNumber),
  responseHeaders: Schema.NullOr(JsonColumn(HeadersDocument)),
  responseBody: Schema.NullOr(Schema.String),
  expiresAt: RowTimestamp
}).pipe(Schema.encodeKeys({
  lockedUntil: "locked_until",
  responseStatus: "response_status",
  responseHeaders: "response_headers",
  responseBody: "response_body",
  expiresAt: "expires_at"
}))
const firstKey = decodeFirstRow(KeyRow)

/**
 * Idempotency keys, claimed with one atomic INSERT so that concurrent requests with the
 * same key, in any number of processes, run the operation once.
 */
export class IdempotencyStore extends Context.Service<IdempotencyStore, {
  readonly claim: (request: IdempotentRequest) => Effect.Effect<Claim, IdempotencyKeyConflict | IdempotencyKeyInFlight>
  /** Keeps the response for replay; a server error releases the key instead. */
  readonly complete: (request: IdempotentRequest, response: StoredResponse) => Effect.Effect<void>
  /** Releases a claimed key whose request failed without a response. */
  readonly release: (request: IdempotentRequest) => Effect.Effect<void>
  readonly prune: () => Effect.Effect<void>
}>()("signcraft/IdempotencyStore") {
  static readonly layer = Layer.effect(
    IdempotencyStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox
      // Stored answers are sealed: a webhook subscription's answer carries its signing secret.

      const insert = (r: IdempotentRequest, now: number) =>
        sql`
          INSERT INTO idempotency_keys
            (store_id, idempotency_key, method, path, fingerprint, state, locked_until, expires_at)
          VALUES (${r.storeId}, ${r.key}, ${r.method}, ${r.path}, ${r.fingerprint}, 'in_flight',
            ${new Date(now + LOCK_MS)}, ${new Date(now + RETENTION_MS)})
          ON CONFLICT (store_id, idempotency_key) DO NOTHING
          RETURNING store_id`

      // Takes over a key whose retention ended or whose first request died.
      const takeOver = (r: IdempotentRequest, now: number) =>
        sql`
          UPDATE idempotency_keys SET method = ${r.method}, path = ${r.path}, fingerprint = ${r.fingerprint},
            state = 'in_flight', locked_until = ${new Date(now + LOCK_MS)}, response_status = NULL,
            response_headers = NULL, response_body = NULL, created_at = now(),
            expires_at = ${new Date(now + RETENTION_MS)}
          WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key}
            AND (expires_at <= ${new Date(now)} OR (state = 'in_flight' AND locked_until <= ${new Date(now)}))
          RETURNING store_id`

      const claim = (r: IdempotentRequest) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          if ((yield* insert(r, now)).length > 0) return { _tag: "Proceed" } as const
          const found = yield* sql`
            SELECT method, path, fingerprint, state, locked_until, response_status, response_headers,
              response_body, expires_at
            FROM idempotency_keys WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key}`.pipe(
            Effect.flatMap(firstKey)
          )
          const row = Option.getOrUndefined(found)
          const expired = row === undefined || row.expiresAt.getTime() <= now
          const abandoned = row?.state === "in_flight" && (row.lockedUntil?.getTime() ?? 0) <= now
          if (expired || abandoned) {
            if ((yield* takeOver(r, now)).length > 0) return { _tag: "Proceed" } as const
            return yield* new IdempotencyKeyInFlight({ retryAfter: 1 })
          }
          if (row.method !== r.method || row.path !== r.path || row.fingerprint !== r.fingerprint) {
            return yield* new IdempotencyKeyConflict()
          }
          if (row.state === "in_flight") {
            const wait = Math.ceil(((row.lockedUntil?.getTime() ?? now) - now) / 1000)
            return yield* new IdempotencyKeyInFlight({ retryAfter: Math.max(1, Math.min(wait, 5)) })
          }
          return {
            _tag: "Replay",
            response: {
              status: row.responseStatus ?? 200,
              headers: row.responseHeaders ?? {},
              body: row.responseBody === null ? "" : box.open(row.responseBody)
            }
          } as const
        }).pipe(Effect.catchTag("SqlError", Effect.die))

      const release = (r: IdempotentRequest) =>
        sql`DELETE FROM idempotency_keys WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key}
          AND state = 'in_flight'`.pipe(Effect.asVoid, Effect.orDie)

      const complete = (r: IdempotentRequest, response: StoredResponse) =>
        response.status >= 500
          ? release(r)
          : sql`
              UPDATE idempotency_keys SET state = 'completed', locked_until = NULL,
                response_status = ${response.status}, response_headers = ${jsonParam(HeadersDocument, response.headers)},
                response_body = ${box.seal(response.body)}
              WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key}`.pipe(Effect.asVoid, Effect.orDie)

      const prune = () => sql`DELETE FROM idempotency_keys WHERE expires_at < now()`.pipe(Effect.asVoid, Effect.orDie)

      return IdempotencyStore.of({ claim, complete, release, prune })
    })
  ).pipe(Layer.provide(SecretBox.layer))
}
