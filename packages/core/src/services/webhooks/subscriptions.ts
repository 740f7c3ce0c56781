import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { randomBase62 } from "../../domain/credentials/api-key.js"
import { NotFound, ValidationFailed } from "../../domain/errors.js"
import { SIGNATURE_SCHEMES, type SignatureScheme } from "../../domain/webhooks/signature-schemes.js"
import { newStandardSecret } from "../../domain/webhooks/standard-signature.js"
import type { WebhookTopic } from "../../domain/webhooks/topics.js"
import { decodeFirstRow, decodeRows, decodeSingleRow, isStorableId, JsonColumn, jsonParam, RowId } from "../../storage/rows.js"
import { DeliveryUrlGuard } from "../outbound/delivery-url-guard.js"
import { SecretBox } from "../credentials/secret-box.js"
import { snakeStruct } from "../../storage/table.js"
import type { SubscriptionRecord } from "../../domain/webhooks/subscription-record.js"

export type { SubscriptionRecord } from "../../domain/webhooks/subscription-record.js"

/** Fields of a new subscription, or of a change (absent fields unchanged). */
export interface SubscriptionFields {
  readonly topic: WebhookTopic
  readonly url: string
  readonly meta?: Readonly<Record<string, unknown>>
  /** On creation only: how deliveries are signed (`signcraft` when absent). */
  readonly signatureScheme?: SignatureScheme
  /** Only `active`, on a change: re-enables a disabled subscription. */
  readonly status?: "active"
}

/** How long a rotated-out secret keeps signing deliveries beside the new one. */
export const SECRET_ROTATION_OVERLAP_HOURS = 24

/** A subscription right after its secret was rotated. */
export interface RotatedSubscription {
  readonly subscription: SubscriptionRecord
  /** Until when deliveries also carry a signature made with the previous secret. */
  readonly previousSecretExpiresAt: string
}

const MetaDocument = Schema.Record(Schema.String, Schema.Unknown)

const Row = snakeStruct({
  id: RowId,
  storeId: RowId,
  topic: Schema.String,
  url: Schema.String,
  secret: Schema.String,
  meta: JsonColumn(MetaDocument),
  status: Schema.String,
  disabledReason: Schema.NullOr(Schema.String),
  signatureScheme: Schema.Literals(SIGNATURE_SCHEMES),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const firstRecord = decodeFirstRow(Row)
const OverlapRow = snakeStruct({ previousSecretExpiresAt: Schema.String })

/** A fresh signing secret: `whsec_` and 32 base62 characters (190 bits). */
export const newSigningSecret = (): string => `whsec_${randomBase62(32)}`

// Each scheme's receivers expect their own secret format: Standard Webhooks decodes base64 bytes.
const newSecretFor = (scheme: SignatureScheme): string => scheme === "standard" ? newStandardSecret() : newSigningSecret()

const notFound = new NotFound({ resource: "webhook subscription" })

/** How many live subscriptions a Store may have: each event fans out to all of them. */
export const MAX_SUBSCRIPTIONS_PER_STORE = 16

/** Webhook subscriptions, always confined to one Store; deleted ones are invisible. */
export class WebhookSubscriptions extends Context.Service<WebhookSubscriptions, {
  readonly create: (storeId: number, fields: SubscriptionFields) => Effect.Effect<SubscriptionRecord, ValidationFailed>
  /** One page in id order after `afterId`; fetches `limit` rows. */
  readonly list: (
    storeId: number,
    page: { readonly limit: number; readonly afterId: number | undefined }
  ) => Effect.Effect<ReadonlyArray<SubscriptionRecord>>
  readonly find: (storeId: number, id: number) => Effect.Effect<SubscriptionRecord, NotFound>
  readonly update: (
    storeId: number,
    id: number,
    change: Partial<SubscriptionFields>
  ) => Effect.Effect<SubscriptionRecord, NotFound | ValidationFailed>
  /** Deletes a subscription and cancels its pending deliveries; its delivery log stays. */
  readonly remove: (storeId: number, id: number) => Effect.Effect<void, NotFound>
  /**
   * A new signing secret; for {@link SECRET_ROTATION_OVERLAP_HOURS} deliveries are signed with
   * the previous one too (`x-webhook-signature`) and the new one (`x-webhook-signature-next`).
   */
  readonly rotateSecret: (storeId: number, id: number) => Effect.Effect<RotatedSubscription, NotFound>
}>()("signcraft/WebhookSubscriptions") {
  static readonly layer = Layer.effect(
    WebhookSubscriptions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const guard = yield* DeliveryUrlGuard
      const box = yield* SecretBox
      // The signing secret is stored sealed and opened only here, where a record is made of it.
      const opened = (row: SubscriptionRecord): SubscriptionRecord => ({ ...row, secret: box.open(row.secret) })
      const columns = sql.unsafe(`
        id, store_id, topic, url, secret, meta, status, disabled_reason, signature_scheme,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
        to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at`)

      const checkUrl = (url: string) =>
        guard.check(url).pipe(
          Effect.mapError((fault) => new ValidationFailed({ errors: [{ pointer: "/url", code: fault.code, detail: fault.detail }] }))
        )

      const find = (storeId: number, id: number) =>
        !isStorableId(id) ? Effect.fail(notFound) : sql`
          SELECT ${columns} FROM webhook_subscriptions
          WHERE id = ${id} AND store_id = ${storeId} AND deleted_at IS NULL`.pipe(
          Effect.orDie,
          Effect.flatMap(firstRecord),
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound), onSome: (row) => Effect.succeed(opened(row)) }))
        )

      const tooMany = new ValidationFailed({
        detail: `A Store may have at most ${MAX_SUBSCRIPTIONS_PER_STORE} webhook subscriptions; delete one first.`,
        errors: [{ pointer: "", code: "limit_exceeded", detail: `At most ${MAX_SUBSCRIPTIONS_PER_STORE} subscriptions per Store.` }]
      })

      return WebhookSubscriptions.of({
        create: Effect.fn("WebhookSubscriptions.create")(function*(storeId, fields) {
            yield* checkUrl(fields.url)
            // The Store's row lock makes count-then-insert exact under concurrent creates.
            yield* sql`SELECT id FROM stores WHERE id = ${storeId} FOR UPDATE`.pipe(Effect.orDie)
            const [live] = yield* sql<{ readonly count: unknown }>`
              SELECT count(*) AS count FROM webhook_subscriptions WHERE store_id = ${storeId} AND deleted_at IS NULL`.pipe(
              Effect.orDie
            )
            if (Number(live?.count ?? 0) >= MAX_SUBSCRIPTIONS_PER_STORE) return yield* tooMany
            const rows = yield* sql`
              INSERT INTO webhook_subscriptions ${sql.insert({
                store_id: storeId,
                topic: fields.topic,
                url: fields.url,
                secret: box.seal(newSecretFor(fields.signatureScheme ?? "signcraft")),
                signature_scheme: fields.signatureScheme ?? "signcraft",
                meta: jsonParam(MetaDocument, fields.meta ?? {})
              })}
              RETURNING ${columns}`.pipe(Effect.orDie)
            return opened(yield* decodeSingleRow(Row)(rows))
          }, sql.withTransaction, Effect.catchTag("SqlError", (error) => Effect.die(error))),
        list: (storeId, { limit, afterId }) =>
          sql`
            SELECT ${columns} FROM webhook_subscriptions
            WHERE store_id = ${storeId} AND deleted_at IS NULL
            ${afterId === undefined ? sql`` : sql`AND id > ${afterId}`}
            ORDER BY id LIMIT ${limit}`.pipe(Effect.orDie, Effect.flatMap(decodeRows(Row)), Effect.map((rows) => rows.map(opened))),
        find,
        update: Effect.fn("WebhookSubscriptions.update")(function*(storeId, id, change) {
            const current = yield* find(storeId, id)
            if (change.url !== undefined) yield* checkUrl(change.url)
            const rows = yield* sql`
              UPDATE webhook_subscriptions SET
                topic = ${change.topic ?? current.topic},
                url = ${change.url ?? current.url},
                meta = ${jsonParam(MetaDocument, change.meta ?? current.meta)},
                status = ${change.status ?? current.status},
                failing_since = ${change.status === "active" ? null : sql`failing_since`},
                disabled_reason = ${change.status === "active" ? null : sql`disabled_reason`},
                updated_at = now()
              WHERE id = ${id} AND store_id = ${storeId} AND deleted_at IS NULL
              RETURNING ${columns}`.pipe(Effect.orDie)
            return yield* Option.match(yield* firstRecord(rows), {
              onNone: () => Effect.fail(notFound),
              onSome: (row) => Effect.succeed(opened(row))
            })
          }),
        rotateSecret: Effect.fn("WebhookSubscriptions.rotateSecret")(function*(storeId, id) {
            const current = yield* find(storeId, id)
            const rows = yield* sql`
              UPDATE webhook_subscriptions SET
                previous_secret = secret,
                previous_secret_expires_at = now() + make_interval(hours => ${SECRET_ROTATION_OVERLAP_HOURS}),
                secret = ${box.seal(newSecretFor(current.signatureScheme))},
                updated_at = now()
              WHERE id = ${id} AND store_id = ${storeId} AND deleted_at IS NULL
              RETURNING ${columns},
                to_char(previous_secret_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS previous_secret_expires_at`.pipe(
              Effect.orDie
            )
            const subscription = yield* decodeSingleRow(Row)(rows)
            const { previousSecretExpiresAt } = yield* decodeSingleRow(OverlapRow)(rows)
            return { subscription: opened(subscription), previousSecretExpiresAt }
          }, sql.withTransaction, Effect.catchTag("SqlError", Effect.die)),
        remove: (storeId, id) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const rows = yield* sql`
                UPDATE webhook_subscriptions SET deleted_at = now(), updated_at = now()
                WHERE id = ${isStorableId(id) ? id : 0} AND store_id = ${storeId} AND deleted_at IS NULL
                RETURNING id`
              if (rows.length === 0) return yield* Effect.fail(notFound)
              yield* sql`
                UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL, updated_at = now()
                WHERE subscription_id = ${id} AND status = 'pending'`
            })
          ).pipe(Effect.catchTag("SqlError", Effect.die))
      })
    })
  ).pipe(Layer.provide(SecretBox.layer))
}
