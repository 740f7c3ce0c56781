import { Clock, Context, Effect, Exit, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { IdempotencyKeyConflict, IdempotencyKeyInFlight } from "../../domain/errors.js"
import { batchRows } from "../../storage/batch-rows.js"
import { inTransaction, makeGroupCommit } from "../../storage/group-commit.js"
import { ClaimOwner } from "../../storage/claim-owner.js"
import { decodeFirstRow, JsonColumn, jsonDocument, RowNumber, RowTimestamp } from "../../storage/rows.js"
import { keepPlain } from "../../domain/credentials/secret-box.js"
import { SecretBox } from "../credentials/secret-box.js"
import { snakeStruct } from "../../storage/table.js"

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
  /**
   * Whether the answer may be kept in plain: its endpoint's answers hold no secret
   * (`AnswerHoldsNoSecret`). Sealed otherwise.
   */
  readonly plainAnswer?: boolean
}

/** Whether an answer is kept for replay: a server error is not, and releases its key instead. */
export const keptForReplay = (response: StoredResponse): boolean => response.status < 500

/** Keys are kept for a day at least, as the contract promises clients. */
export const RETENTION_MS = 24 * 60 * 60 * 1000
// The first request holds its key this long; a request still unfinished after it is presumed
// crashed and the key may be claimed again. A claim whose process is known to be gone
// (storage/claim-owner.ts) is taken over at once instead.
const LOCK_MS = 60_000

const HeadersDocument = Schema.Record(Schema.String, Schema.String)

const KeyRow = snakeStruct({
  method: Schema.String,
  path: Schema.String,
  fingerprint: Schema.String,
  state: Schema.Literals(["in_flight", "completed"]),
  lockedUntil: Schema.NullOr(RowTimestamp),
  claimedBy: Schema.NullOr(Schema.String),
  responseStatus: Schema.NullOr(RowNumber),
  responseHeaders: Schema.NullOr(JsonColumn(HeadersDocument)),
  responseBody: Schema.NullOr(Schema.String),
  expiresAt: RowTimestamp
})
const firstKey = decodeFirstRow(KeyRow)

/** A claim as a statement carries it: the request, and the time its lock and retention count from. */
export interface NewClaim {
  readonly request: IdempotentRequest
  readonly now: number
}

/** A key a claim statement claimed. */
export interface ClaimedRow {
  readonly store_id: number
  readonly idempotency_key: string
}

const keyId = (storeId: number, key: string): string => `${storeId} ${key}`

/**
 * A batch's claims as one statement may carry them: each key once. A key twice in one batch is
 * claimed by its first request only; the second finds it held, as it would a moment later.
 * `isFirst` tells, per claim, whether it is carried; `claimedBy` tells, from the keys the
 * statement claimed, whether each request of the batch claimed its own.
 */
export const claimable = (batch: ReadonlyArray<NewClaim>) => {
  const seen = new Set<string>()
  const isFirst = batch.map(({ request }) => {
    const id = keyId(request.storeId, request.key)
    const first = !seen.has(id)
    seen.add(id)
    return first
  })
  return {
    first: batch.filter((_, index) => isFirst[index]),
    isFirst,
    claimedBy: (claimed: ReadonlyArray<ClaimedRow>): ReadonlyArray<boolean> => {
      const ids = new Set(claimed.map((row) => keyId(Number(row.store_id), row.idempotency_key)))
      return batch.map(({ request }, index) => isFirst[index] === true && ids.has(keyId(request.storeId, request.key)))
    }
  }
}

/** A claimed request's answer, to be kept for replay. */
export interface Completion {
  readonly request: IdempotentRequest
  readonly response: StoredResponse
}

/**
 * Present while a request that claimed its key is served. A write that can keep the request's
 * answer in its own statement defers itself here, and runs once the answer is known: the change
 * and its answer then commit together. Were they separate, a crash between the two commits would
 * leave the change made and the key in flight, and a retry, once the lock lapsed, would make the
 * change again.
 */
export class HeldKey extends Context.Service<HeldKey, {
  /**
   * The claim the handler's first statement is to make (an endpoint annotated
   * `KeyClaimedByHandler`; see `IdempotencyStore.claimKeys`), or undefined when the key is claimed
   * already. The statement's verdict is told to {@link claimed}.
   */
  readonly unclaimed: () => NewClaim | undefined
  /**
   * Whether the statement claimed the key. When it did not, another request holds it: the handler
   * writes nothing, and the request is answered from that request's key, not by the handler.
   */
  readonly claimed: (won: boolean) => void
  /**
   * Defers `write` until the request is answered; it is then given the answer and must keep it
   * with its change (`IdempotencyStore.keepAnswers`). An answer that is not kept (a server error)
   * releases the key, and `write` does not run. A request defers at most one write.
   */
  readonly deferWrite: (write: (answer: Completion) => Effect.Effect<void>) => Effect.Effect<void>
}>()("signcraft/HeldKey") {}

/** What a write learns from {@link heldKeyHandshake}: the claim to make, then what it may do. */
export interface HeldKeyHandshake {
  /** The claim the write's first statement makes, if it is to make one. */
  readonly claim: NewClaim | undefined
  /**
   * Tells the held key what that statement decided, and answers whether this request may write:
   * false when another request holds the key (this one is answered from that one's answer).
   */
  readonly settle: (claimed: boolean) => boolean
  /** Writes now, or, under a held key, once the request's answer is known and with it. */
  readonly write: (write: (answer: Completion | undefined) => Effect.Effect<void>) => Effect.Effect<void>
}

/**
 * The whole held-key protocol as a write sees it (ARCHITECTURE.md, "Idempotency"): read the
 * claim, make it in the write's own read, settle, then write with the answer. A request without
 * a key, or whose key the middleware already claimed, gets a handshake that claims nothing and
 * writes at once.
 */
export const heldKeyHandshake: Effect.Effect<HeldKeyHandshake> = Effect.map(Effect.serviceOption(HeldKey), (option) => {
  const held = Option.getOrUndefined(option)
  const claim = held?.unclaimed()
  return {
    claim,
    settle: (claimed) => {
      if (claim === undefined) return true
      held?.claimed(claimed)
      return claimed
    },
    write: (write) => (held === undefined ? write(undefined) : held.deferWrite(write))
  }
})

// The most claims or completions one statement carries.
const BATCH = 64

/**
 * Idempotency keys, claimed with one atomic INSERT so that concurrent requests with the
 * same key, in any number of processes, run the operation once.
 */
export class IdempotencyStore extends Context.Service<IdempotencyStore, {
  readonly claim: (request: IdempotentRequest) => Effect.Effect<Claim, IdempotencyKeyConflict | IdempotencyKeyInFlight>
  /**
   * The statement that claims keys (see {@link claimable}), for a handler's first statement to
   * carry; it returns the keys it claimed ({@link ClaimedRow}).
   */
  readonly claimKeys: (claims: ReadonlyArray<NewClaim>) => Statement.Fragment
  /** The answer for a request whose key another request claimed: that request's answer, replayed. */
  readonly settle: (request: IdempotentRequest) => Effect.Effect<StoredResponse, IdempotencyKeyConflict | IdempotencyKeyInFlight>
  /** Keeps the response for replay; a server error releases the key instead. */
  readonly complete: (request: IdempotentRequest, response: StoredResponse) => Effect.Effect<void>
  /** Releases a claimed key whose request failed without a response. */
  readonly release: (request: IdempotentRequest) => Effect.Effect<void>
  /**
   * The statement that keeps these answers, for a data-modifying statement to carry beside its
   * own change (see {@link HeldKey}).
   */
  readonly keepAnswers: (answers: ReadonlyArray<Completion>) => Statement.Fragment
  readonly prune: () => Effect.Effect<void>
}>()("signcraft/IdempotencyStore") {
  static readonly layer = Layer.effect(
    IdempotencyStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox
      // Without an owner (a `SqlClient` built by the host, not by `layerDatabase`) claims carry none
      // and a dead one waits out its lease.
      const owner = Option.getOrUndefined(yield* Effect.serviceOption(ClaimOwner))
      // Stored answers are sealed, as a webhook subscription's carries its signing secret; but
      // those of endpoints whose answers hold no secret (`plainAnswer`).

      // Claims keys: a new key is inserted in flight; a key whose retention ended, or whose first
      // request died (its lock lapsed), is taken over in the same statement; a key still held is
      // left as it is. Returns the keys claimed. Each key at most once (see `claimable`).
      const claimKeys = (batch: ReadonlyArray<NewClaim>): Statement.Fragment => {
        const rows = batch.map(({ request, now }) => ({
          store_id: request.storeId,
          idempotency_key: request.key,
          method: request.method,
          path: request.path,
          fingerprint: request.fingerprint,
          created_at: new Date(now).toISOString(),
          locked_until: new Date(now + LOCK_MS).toISOString(),
          claimed_by: owner?.id ?? null,
          expires_at: new Date(now + RETENTION_MS).toISOString()
        }))
        return sql`
          INSERT INTO idempotency_keys AS held
            (store_id, idempotency_key, method, path, fingerprint, state, created_at, locked_until, claimed_by, expires_at)
          SELECT store_id, idempotency_key, method, path, fingerprint, 'in_flight', created_at, locked_until, claimed_by,
            expires_at
          FROM ${
          batchRows(sql, rows, `store_id integer, idempotency_key text, method text, path text, fingerprint text,
            created_at timestamptz, locked_until timestamptz, claimed_by text, expires_at timestamptz`)
        } AS k
          ON CONFLICT (store_id, idempotency_key) DO UPDATE SET method = excluded.method, path = excluded.path,
            fingerprint = excluded.fingerprint, state = 'in_flight', created_at = excluded.created_at,
            locked_until = excluded.locked_until, claimed_by = excluded.claimed_by, response_status = NULL, response_headers = NULL,
            response_body = NULL, expires_at = excluded.expires_at
          WHERE held.expires_at <= excluded.created_at
            OR (held.state = 'in_flight' AND held.locked_until <= excluded.created_at)
          RETURNING store_id, idempotency_key`
      }

      // Claims a batch of keys in one statement (storage/group-commit.ts); answers, per request,
      // whether it claimed its key.
      const insertClaims = (batch: ReadonlyArray<NewClaim>) => {
        const { first, claimedBy } = claimable(batch)
        return sql<ClaimedRow>`${claimKeys(first)}`.pipe(
          Effect.orDie,
          Effect.map((claimed) => claimedBy(claimed).map((won) => Exit.succeed(won)))
        )
      }
      const claims = makeGroupCommit({ maxBatch: BATCH, maxConcurrent: 1, alone: inTransaction(sql), write: insertClaims })

      const readKey = (r: IdempotentRequest) =>
        sql`
          SELECT method, path, fingerprint, state, locked_until, claimed_by, response_status, response_headers,
            response_body, expires_at
          FROM idempotency_keys WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key}`.pipe(
          Effect.flatMap(firstKey),
          Effect.map(Option.getOrUndefined),
          Effect.catchTag("SqlError", Effect.die)
        )

      // What a request is told about a key another request holds or held: the first answer
      // replayed, or why not.
      const answerFrom = (r: IdempotentRequest, row: typeof KeyRow.Type | undefined, now: number) =>
        Effect.gen(function*() {
          // Gone or lapsed since the claim looked: another request is taking it over.
          if (row === undefined || row.expiresAt.getTime() <= now) return yield* new IdempotencyKeyInFlight({ retryAfter: 1 })
          if (row.method !== r.method || row.path !== r.path || row.fingerprint !== r.fingerprint) {
            return yield* new IdempotencyKeyConflict()
          }
          if (row.state === "in_flight") {
            const wait = Math.ceil(((row.lockedUntil?.getTime() ?? now) - now) / 1000)
            return yield* new IdempotencyKeyInFlight({ retryAfter: Math.max(1, Math.min(wait, 5)) })
          }
          return {
            status: row.responseStatus ?? 200,
            headers: row.responseHeaders ?? {},
            body: row.responseBody === null ? "" : box.open(row.responseBody)
          }
        })

      const settle = Effect.fn("IdempotencyStore.settle")(function*(r: IdempotentRequest) {
          const now = yield* Clock.currentTimeMillis
          return yield* answerFrom(r, yield* readKey(r), now)
        })

      // Ends the lease of a key in flight for a process that is gone, so that the next claim takes
      // it over (the claim statement's own rule for a lapsed lease). Only that owner's claim is
      // touched: a request that took the key over meanwhile keeps it.
      const lapseDeadClaim = (r: IdempotentRequest, row: typeof KeyRow.Type | undefined) =>
        Effect.gen(function*() {
          if (owner === undefined || row?.state !== "in_flight" || row.claimedBy === null) return false
          if (!(yield* owner.isGone(row.claimedBy))) return false
          const lapsed = yield* sql`
            UPDATE idempotency_keys SET locked_until = created_at
            WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key} AND state = 'in_flight'
              AND claimed_by = ${row.claimedBy}
            RETURNING idempotency_key`
          return lapsed.length > 0
        }).pipe(Effect.catchTag("SqlError", Effect.die))

      const claim = Effect.fn("IdempotencyStore.claim")(function*(r: IdempotentRequest) {
          if (yield* claims.submit({ request: r, now: yield* Clock.currentTimeMillis })) return { _tag: "Proceed" } as const
          const row = yield* readKey(r)
          // A key whose claimer died is claimed again at once, as if its lease had run out.
          if (yield* lapseDeadClaim(r, row)) {
            const now = yield* Clock.currentTimeMillis
            if (yield* claims.submit({ request: r, now })) return { _tag: "Proceed" } as const
            return { _tag: "Replay", response: yield* answerFrom(r, yield* readKey(r), now) } as const
          }
          return { _tag: "Replay", response: yield* answerFrom(r, row, yield* Clock.currentTimeMillis) } as const
        })

      const release = (r: IdempotentRequest) =>
        sql`DELETE FROM idempotency_keys WHERE store_id = ${r.storeId} AND idempotency_key = ${r.key}
          AND state = 'in_flight'`.pipe(Effect.asVoid, Effect.orDie)

      const keepAnswers = (answers: ReadonlyArray<Completion>) => {
        const rows = answers.map(({ request, response }) => ({
          store_id: request.storeId,
          idempotency_key: request.key,
          status: response.status,
          headers: jsonDocument(HeadersDocument, response.headers),
          body: request.plainAnswer === true ? keepPlain(response.body) : box.seal(response.body)
        }))
        return sql`
          UPDATE idempotency_keys AS k SET state = 'completed', locked_until = NULL, response_status = c.status,
            response_headers = c.headers::jsonb, response_body = c.body
          FROM ${batchRows(sql, rows, "store_id integer, idempotency_key text, status integer, headers json, body text")} AS c
          WHERE k.store_id = c.store_id AND k.idempotency_key = c.idempotency_key`
      }

      // Keeps a batch of answers in one statement.
      const updateCompleted = (batch: ReadonlyArray<Completion>) =>
        keepAnswers(batch).pipe(Effect.orDie, Effect.as(batch.map(() => Exit.void)))
      const completions = makeGroupCommit({ maxBatch: BATCH, maxConcurrent: 1, alone: inTransaction(sql), write: updateCompleted })

      const complete = (request: IdempotentRequest, response: StoredResponse) =>
        keptForReplay(response) ? completions.submit({ request, response }) : release(request)

      const prune = () => sql`DELETE FROM idempotency_keys WHERE expires_at < now()`.pipe(Effect.asVoid, Effect.orDie)

      return IdempotencyStore.of({ claim, claimKeys, settle, complete, release, keepAnswers, prune })
    })
  ).pipe(Layer.provide(SecretBox.layer))
}
