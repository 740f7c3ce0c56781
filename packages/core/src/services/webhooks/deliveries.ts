import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { NotFound } from "../../domain/errors.js"
import { ATTEMPT_STATUSES, DELIVERY_TRIGGERS, type DeliveryTrigger } from "../../domain/webhooks/delivery-log.js"
import type { NextStep } from "../../domain/webhooks/receiver-answer.js"
import { SIGNATURE_SCHEMES, type SignatureScheme } from "../../domain/webhooks/signature-schemes.js"
import { batchRows } from "../../storage/batch-rows.js"
import { decodeFirstRow, decodeRows, isStorableBigId, isStorableId, RowId, RowNumber, RowTimestamp } from "../../storage/rows.js"
import { SecretBox } from "../credentials/secret-box.js"
import { snakeStruct } from "../../storage/table.js"
import type { DeliveryRecord } from "../../domain/webhooks/delivery-record.js"

export type { AttemptRecord, DeliveryRecord } from "../../domain/webhooks/delivery-record.js"

/** A delivery a worker claimed: everything needed to send one attempt. */
export interface ClaimedDelivery {
  readonly id: number
  readonly eventId: number
  readonly topic: string
  /** The JSON body exactly as it will be sent and signed. */
  readonly body: string
  readonly url: string
  readonly secret: string
  /** The secret before the last rotation, while its overlap lasts: deliveries are signed with both. */
  readonly previousSecret: string | null
  readonly subscriptionId: number
  /** How the subscription's deliveries are signed. */
  readonly scheme: SignatureScheme
  /** Why this attempt is made. */
  readonly trigger: DeliveryTrigger
  /** The number of the attempt about to be made, from 1. */
  readonly attempt: number
  readonly firstAttemptAt: Date
  /** When the event was recorded (for latency measurements). */
  readonly eventCreatedAt: Date
}

/** What became of one attempt, and what to do next. */
export interface AttemptResult {
  readonly startedAt: Date
  readonly durationMs: number
  readonly responseStatus: number | null
  /** The first kilobyte of the answer's body; null when no answer came. */
  readonly responseExcerpt: string | null
  readonly error: string | null
  readonly next: NextStep
}

const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

const DeliveryRow = snakeStruct({
  id: RowId,
  subscriptionId: RowId,
  eventId: RowId,
  topic: Schema.String,
  status: Schema.String,
  trigger: Schema.Literals(DELIVERY_TRIGGERS),
  attemptCount: RowNumber,
  nextAttemptAt: Schema.NullOr(Schema.String),
  deliveredAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
const toDeliveries = decodeRows(DeliveryRow)

const AttemptRow = snakeStruct({
  deliveryId: RowId,
  attemptNumber: RowNumber,
  startedAt: Schema.String,
  durationMs: RowNumber,
  responseStatus: Schema.NullOr(RowNumber),
  responseExcerpt: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  trigger: Schema.Literals(DELIVERY_TRIGGERS),
  status: Schema.NullOr(Schema.Literals(ATTEMPT_STATUSES)),
  nextAttemptAt: Schema.NullOr(Schema.String)
})
const toAttempts = decodeRows(AttemptRow)

// A claimed row decodes straight into the camelCase ClaimedDelivery the worker uses.
const ClaimRow = Schema.Struct({
  id: RowId,
  eventId: RowId,
  attempt: RowNumber,
  firstAttemptAt: RowTimestamp,
  eventCreatedAt: RowTimestamp,
  topic: Schema.String,
  body: Schema.String,
  url: Schema.String,
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  subscriptionId: RowId,
  scheme: Schema.Literals(SIGNATURE_SCHEMES),
  trigger: Schema.Literals(DELIVERY_TRIGGERS)
}).pipe(Schema.encodeKeys({
  scheme: "signature_scheme",
  previousSecret: "previous_secret",
  subscriptionId: "subscription_id",
  eventId: "event_id",
  attempt: "attempt_count",
  firstAttemptAt: "first_attempt_at",
  eventCreatedAt: "event_created_at"
}))
const toClaims = decodeRows(ClaimRow)

const firstBody = decodeFirstRow(Schema.Struct({ body: Schema.String }))

const notFound = new NotFound({ resource: "webhook delivery" })

// An attempt's outcome as the log shows it: delivered, failed for good, or failed with a retry due.
const outcomeStatus = (next: NextStep): "delivered" | "failed" | "pending" =>
  next._tag === "Delivered" ? "delivered" : next._tag === "Retry" ? "pending" : "failed"

/** How long a subscription's deliveries may keep failing before it is disabled. */
export const FAILING_DAYS_BEFORE_DISABLED = 5

/**
 * The delivery queue (rows of `webhook_deliveries`) and its log. Claims take due rows with
 * `FOR UPDATE SKIP LOCKED` and stamp a lease, so concurrent workers — in one process or in
 * several sharing a PostgreSQL — each get different rows; a result is recorded only by the worker
 * still holding the claim.
 */
export class WebhookDeliveries extends Context.Service<WebhookDeliveries, {
  /** Claims up to `limit` due deliveries for `workerId`, leased for `leaseMs`. */
  readonly claimDue: (workerId: string, limit: number, leaseMs: number) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, SqlError.SqlError>
  /**
   * Records attempts and their consequences in one statement. A result whose claim was lost
   * meanwhile (lease expired and taken over, subscription deleted) changes no delivery; its
   * attempt is still logged, since it did happen.
   */
  readonly record: (
    workerId: string,
    results: ReadonlyArray<{ readonly claim: ClaimedDelivery; readonly result: AttemptResult }>
  ) => Effect.Effect<void, SqlError.SqlError>
  /** One page of a subscription's deliveries, newest first, before `beforeId`; fetches `limit` rows. */
  readonly listForSubscription: (
    storeId: number,
    subscriptionId: number,
    page: { readonly limit: number; readonly beforeId: number | undefined; readonly status?: string | undefined }
  ) => Effect.Effect<ReadonlyArray<DeliveryRecord>, NotFound>
  /** One delivery of a subscription of the Store, with its attempts. */
  readonly find: (storeId: number, subscriptionId: number, deliveryId: number) => Effect.Effect<DeliveryRecord, NotFound>
  /** Queues one more attempt of a delivery now (the same `x-webhook-id`); in-flight ones are left as they are. */
  readonly redeliver: (storeId: number, subscriptionId: number, deliveryId: number) => Effect.Effect<DeliveryRecord, NotFound>
  /** The body of the Store's most recent event of a topic, exactly as delivered. */
  readonly latestBody: (storeId: number, topic: string) => Effect.Effect<Option.Option<string>>
  /** How many deliveries wait to be sent, of every Store, and how long the oldest has waited (seconds). */
  readonly backlog: () => Effect.Effect<{ readonly pending: number; readonly oldestSeconds: number }, SqlError.SqlError>
}>()("signcraft/WebhookDeliveries") {
  static readonly layer = Layer.effect(
    WebhookDeliveries,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox
      const deliveryColumns = sql.unsafe(`
        d.id, d.subscription_id, d.event_id, e.topic, d.status, d.trigger, d.attempt_count,
        CASE WHEN d.status = 'pending' THEN ${utc("d.next_attempt_at")} END AS next_attempt_at,
        ${utc("d.delivered_at")} AS delivered_at, d.last_error, ${utc("d.created_at")} AS created_at`)

      const withAttempts = (raw: ReadonlyArray<unknown>) =>
        Effect.gen(function*() {
          const rows = yield* toDeliveries(raw)
          if (rows.length === 0) return []
          const ids = rows.map((row) => row.id)
          const attempts = yield* toAttempts(yield* sql`
            SELECT delivery_id, attempt_number, ${sql.unsafe(utc("started_at"))} AS started_at, duration_ms,
              response_status, response_excerpt, error, trigger, status, ${sql.unsafe(utc("next_attempt_at"))} AS next_attempt_at
            FROM webhook_attempts WHERE ${sql.in("delivery_id", ids)} ORDER BY id`)
          return rows.map((row): DeliveryRecord => ({
            ...row,
            attempts: attempts.filter((a) => a.deliveryId === row.id).map(({ deliveryId: _, ...attempt }) => attempt)
          }))
        })

      const subscriptionOfStore = (storeId: number, subscriptionId: number) =>
        !isStorableId(subscriptionId) ? Effect.fail(new NotFound({ resource: "webhook subscription" })) : sql`
          SELECT id FROM webhook_subscriptions
          WHERE id = ${subscriptionId} AND store_id = ${storeId} AND deleted_at IS NULL`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new NotFound({ resource: "webhook subscription" })) : Effect.void)
        )

      // Stops a subscription: it is disabled for `reason` and its pending deliveries are cancelled
      // (a PATCH to active re-enables it; a recovery then sends what it missed).
      const disable = (ids: ReadonlyArray<number>, reason: "gone" | "failing", cancelled: string) =>
        Effect.gen(function*() {
          if (ids.length === 0) return
          yield* sql`
            UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = ${reason}, updated_at = now()
            WHERE ${sql.in("id", ids)} AND status = 'active'`
          yield* sql`
            UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL, claimed_by = NULL,
              last_error = ${cancelled}, updated_at = now()
            WHERE ${sql.in("subscription_id", ids)} AND status = 'pending'`
        })

      // Endpoint health, in the manner of Svix: a delivered attempt clears a subscription's failing
      // streak; a failed one starts it; a streak older than FAILING_DAYS_BEFORE_DISABLED disables
      // the subscription, and so does a receiver answering 410 Gone, at once.
      const recordHealth = (results: ReadonlyArray<{ readonly claim: ClaimedDelivery; readonly result: AttemptResult }>) =>
        Effect.gen(function*() {
          const healthy = [...new Set(results.filter(({ result }) => result.next._tag === "Delivered").map(({ claim }) => claim.subscriptionId))]
          const failing = [...new Set(results.filter(({ result }) => result.next._tag !== "Delivered").map(({ claim }) => claim.subscriptionId))]
            .filter((id) => !healthy.includes(id))
          const gone = [...new Set(results.filter(({ result }) => result.next._tag === "Disable").map(({ claim }) => claim.subscriptionId))]
          if (healthy.length > 0) {
            yield* sql`UPDATE webhook_subscriptions SET failing_since = NULL WHERE ${sql.in("id", healthy)} AND failing_since IS NOT NULL`
          }
          yield* disable(gone, "gone", "subscription disabled: its receiver answered 410 Gone")
          if (failing.length === 0) return
          yield* sql`UPDATE webhook_subscriptions SET failing_since = now() WHERE ${sql.in("id", failing)} AND failing_since IS NULL`
          const expired = yield* sql<{ readonly id: number }>`
            SELECT id FROM webhook_subscriptions
            WHERE ${sql.in("id", failing)} AND status = 'active'
              AND failing_since <= now() - make_interval(days => ${FAILING_DAYS_BEFORE_DISABLED})`
          yield* disable(
            expired.map((row) => Number(row.id)),
            "failing",
            `subscription disabled after failing for ${FAILING_DAYS_BEFORE_DISABLED} days`
          )
        })

      // Read through the partial index of pending deliveries: a scrape never scans delivered ones.
      const backlog = Effect.fn("WebhookDeliveries.backlog")(function*() {
        const rows = yield* sql<{ readonly pending: number; readonly oldest_seconds: number | null }>`
          SELECT count(*)::int AS pending,
            extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
          FROM webhook_deliveries WHERE status = 'pending'`
        return { pending: rows[0]?.pending ?? 0, oldestSeconds: Math.max(0, rows[0]?.oldest_seconds ?? 0) }
      })

      const find = Effect.fn("WebhookDeliveries.find")(function*(storeId: number, subscriptionId: number, deliveryId: number) {
        yield* subscriptionOfStore(storeId, subscriptionId)
        if (!isStorableBigId(deliveryId)) return yield* Effect.fail(notFound)
        const rows = yield* sql`
          SELECT ${deliveryColumns} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE d.id = ${deliveryId} AND d.subscription_id = ${subscriptionId}`.pipe(Effect.orDie)
        const [record] = yield* withAttempts(rows).pipe(Effect.orDie)
        return record === undefined ? yield* Effect.fail(notFound) : record
      })

      return WebhookDeliveries.of({
        backlog,
        claimDue: (workerId, limit, leaseMs) =>
          sql`
            WITH due AS (
              SELECT id FROM webhook_deliveries
              WHERE status = 'pending' AND next_attempt_at <= now()
                AND (locked_until IS NULL OR locked_until < now())
                AND (trigger <> 'recovery' OR NOT EXISTS (
                  SELECT 1 FROM webhook_deliveries ahead
                  WHERE ahead.subscription_id = webhook_deliveries.subscription_id
                    AND ahead.status = 'pending' AND ahead.trigger = 'recovery'
                    AND ahead.event_id < webhook_deliveries.event_id))
              ORDER BY next_attempt_at, id
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED
            ), claimed AS (
              UPDATE webhook_deliveries d SET
                locked_until = now() + (${leaseMs}::integer * interval '1 millisecond'),
                claimed_by = ${workerId},
                attempt_count = d.attempt_count + 1,
                first_attempt_at = coalesce(d.first_attempt_at, now()),
                updated_at = now()
              FROM due WHERE d.id = due.id
              RETURNING d.id, d.event_id, d.subscription_id, d.attempt_count, d.first_attempt_at, d.trigger
            )
            SELECT c.id, c.event_id, c.subscription_id, c.attempt_count, c.first_attempt_at, e.created_at AS event_created_at,
              c.trigger, e.topic, e.body, s.url, s.secret, s.signature_scheme,
              CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret
            FROM claimed c
            JOIN events e ON e.id = c.event_id
            JOIN webhook_subscriptions s ON s.id = c.subscription_id
            ORDER BY c.id`.pipe(
            Effect.flatMap(toClaims),
            // The signing secret is opened here, for the worker that signs with it.
            Effect.map((claims) =>
              claims.map((claim) => ({
                ...claim,
                secret: box.open(claim.secret),
                previousSecret: claim.previousSecret === null ? null : box.open(claim.previousSecret)
              }))
            )
          ),
        record: (workerId, results) => {
          if (results.length === 0) return Effect.void
          const rows = results.map(({ claim, result }) => {
            const next = result.next
            return {
              delivery_id: claim.id,
              attempt_number: claim.attempt,
              started_at: result.startedAt.toISOString(),
              duration_ms: Math.round(result.durationMs),
              response_status: result.responseStatus,
              response_excerpt: result.responseExcerpt,
              error: result.error,
              trigger: claim.trigger,
              status: outcomeStatus(next),
              delay_ms: next._tag === "Retry" ? Math.max(0, Math.round(next.delayMs)) : null
            }
          })
          // One statement: the attempts are logged, and each delivery still claimed by this worker
          // takes its outcome; the next attempt, if any, is a scheduled one whatever this one was.
          // The health change commits with it, so no reader sees a failed attempt on an endpoint
          // that is not yet marked failing.
          return sql`
            WITH input AS (
              SELECT * FROM ${
            batchRows(
              sql,
              rows,
              "delivery_id bigint, attempt_number integer, started_at timestamptz, duration_ms integer, response_status integer, response_excerpt text, error text, trigger text, status text, delay_ms integer"
            )
          } AS r
            ), attempt AS (
              INSERT INTO webhook_attempts
                (delivery_id, attempt_number, started_at, duration_ms, response_status, response_excerpt, error, trigger, status, next_attempt_at)
              SELECT delivery_id, attempt_number, started_at, duration_ms, response_status, response_excerpt, error, trigger, status,
                now() + delay_ms * interval '1 millisecond'
              FROM input
            )
            UPDATE webhook_deliveries d SET
              status = r.status,
              trigger = 'scheduled',
              next_attempt_at = now() + coalesce(r.delay_ms, 0) * interval '1 millisecond',
              locked_until = NULL,
              claimed_by = NULL,
              last_status = r.response_status,
              last_error = r.error,
              delivered_at = CASE WHEN r.status = 'delivered' THEN now() ELSE d.delivered_at END,
              updated_at = now()
            FROM input r
            WHERE d.id = r.delivery_id AND d.claimed_by = ${workerId} AND d.attempt_count = r.attempt_number
              AND d.status = 'pending'`.pipe(Effect.andThen(recordHealth(results)), sql.withTransaction)
        },
        listForSubscription: Effect.fn("WebhookDeliveries.listForSubscription")(function*(storeId, subscriptionId, { limit, beforeId, status }) {
            yield* subscriptionOfStore(storeId, subscriptionId)
            const rows = yield* sql`
              SELECT ${deliveryColumns} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
              WHERE d.subscription_id = ${subscriptionId}
              ${beforeId === undefined ? sql`` : sql`AND d.id < ${beforeId}`}
              ${status === undefined ? sql`` : sql`AND d.status = ${status}`}
              ORDER BY d.id DESC LIMIT ${limit}`.pipe(Effect.orDie)
            return yield* withAttempts(rows).pipe(Effect.orDie)
          }),
        find,
        redeliver: Effect.fn("WebhookDeliveries.redeliver")(function*(storeId, subscriptionId, deliveryId) {
            yield* subscriptionOfStore(storeId, subscriptionId)
            if (!isStorableBigId(deliveryId)) return yield* Effect.fail(notFound)
            yield* sql`
              UPDATE webhook_deliveries SET status = 'pending', trigger = 'manual', next_attempt_at = now(), updated_at = now()
              WHERE id = ${deliveryId} AND subscription_id = ${subscriptionId}
                AND NOT (status = 'pending' AND locked_until IS NOT NULL AND locked_until > now())`.pipe(Effect.orDie)
            return yield* find(storeId, subscriptionId, deliveryId)
          }),
        latestBody: (storeId, topic) =>
          sql`
            SELECT body FROM events
            WHERE store_id = ${storeId} AND topic = ${topic}
            ORDER BY id DESC LIMIT 1`.pipe(
            Effect.orDie,
            Effect.flatMap(firstBody),
            Effect.map(Option.map((row) => row.body))
          )
      })
    })
  ).pipe(Layer.provide(SecretBox.layer))
}
