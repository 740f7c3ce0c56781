import { Clock, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, RowId } from "../../storage/rows.js"

/** Rows deleted per statement, so pruning never holds long locks or builds one huge transaction. */
export const RETENTION_BATCH = 1000

const IdRow = Schema.Struct({ id: RowId })

/** What one pass of {@link pruneRetained} deleted. */
export interface RetentionCounts {
  readonly attempts: number
  readonly events: number
  readonly grants: number
  readonly quotes: number
}

/**
 * `RETENTION_DAYS` (docs/configuration.md): deletes, in batches, delivery attempts older than
 * `days`, events older than `days` with no delivery still pending (their deliveries and attempts
 * with them), grants revoked more than `days` ago (their codes and tokens with them) and quotes
 * (anonymous form submissions, which would otherwise only ever grow) older than `days`.
 * Expired idempotency keys and unused clients have their own pruning (`IdempotencyStore.prune`,
 * `OAuthClients.prune`).
 */
export const pruneRetained = Effect.fn("Retention.pruneRetained")(function*(days: number) {
    const sql = yield* SqlClient.SqlClient
    const cutoff = new Date((yield* Clock.currentTimeMillis) - days * 24 * 60 * 60 * 1000)
    const ids = decodeRows(IdRow)
    // Runs `batch` until it finds fewer than a batch's worth: each round is its own transaction.
    const inBatches = (batch: Effect.Effect<number, unknown>) =>
      Effect.gen(function*() {
        let total = 0
        for (;;) {
          const deleted = yield* sql.withTransaction(batch)
          total += deleted
          if (deleted < RETENTION_BATCH) return total
        }
      })

    const attempts = yield* inBatches(Effect.gen(function*() {
      const doomed = yield* sql`
        SELECT id FROM webhook_attempts WHERE started_at < ${cutoff} ORDER BY id LIMIT ${RETENTION_BATCH}`.pipe(Effect.flatMap(ids))
      if (doomed.length > 0) yield* sql`DELETE FROM webhook_attempts WHERE ${sql.in("id", doomed.map((row) => row.id))}`
      return doomed.length
    }))

    const events = yield* inBatches(Effect.gen(function*() {
      const doomed = yield* sql`
        SELECT e.id FROM events e
        WHERE e.created_at < ${cutoff}
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
        ORDER BY e.id LIMIT ${RETENTION_BATCH}`.pipe(Effect.flatMap(ids))
      if (doomed.length === 0) return 0
      const eventIds = doomed.map((row) => row.id)
      yield* sql`
        DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE ${sql.in("event_id", eventIds)})`
      yield* sql`DELETE FROM webhook_deliveries WHERE ${sql.in("event_id", eventIds)}`
      yield* sql`DELETE FROM events WHERE ${sql.in("id", eventIds)}`
      return doomed.length
    }))

    const grants = yield* inBatches(Effect.gen(function*() {
      const doomed = yield* sql`
        SELECT id FROM oauth_grants WHERE revoked_at < ${cutoff} ORDER BY id LIMIT ${RETENTION_BATCH}`.pipe(Effect.flatMap(ids))
      // Codes and tokens go with their grant (ON DELETE CASCADE).
      if (doomed.length > 0) yield* sql`DELETE FROM oauth_grants WHERE ${sql.in("id", doomed.map((row) => row.id))}`
      return doomed.length
    }))

    const quotes = yield* inBatches(Effect.gen(function*() {
      const doomed = yield* sql`
        SELECT id FROM quotes WHERE created_at < ${cutoff} ORDER BY id LIMIT ${RETENTION_BATCH}`.pipe(Effect.flatMap(ids))
      if (doomed.length > 0) yield* sql`DELETE FROM quotes WHERE ${sql.in("id", doomed.map((row) => row.id))}`
      return doomed.length
    }))

    return { attempts, events, grants, quotes } satisfies RetentionCounts
  }, Effect.orDie)
