import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { randomBase62 } from "../../domain/credentials/api-key.js"
import { NotFound, ValidationFailed } from "../../domain/errors.js"
import { decodeFirstRow, decodeSingleRow, isStorableId, RowId } from "../../storage/rows.js"
import { checkIntegrationUse, type IntegrationUse } from "../../domain/orders/integration-use.js"
import { DeliveryUrlGuard } from "../outbound/delivery-url-guard.js"
import { SecretBox } from "../credentials/secret-box.js"
import { snakeStruct } from "../../storage/table.js"
import type { IntegrationRecord } from "../../domain/orders/integration-record.js"

export type { IntegrationRecord } from "../../domain/orders/integration-record.js"

const IntegrationRow = snakeStruct({
  id: RowId,
  storeId: RowId,
  name: Schema.NullOr(Schema.String),
  createProductUrl: Schema.String,
  enabled: Schema.Boolean,
  signingSecret: Schema.String,
  createdAt: Schema.String
})

const firstRecord = decodeFirstRow(IntegrationRow)
const singleRecord = decodeSingleRow(IntegrationRow)

/** A fresh signing secret: `whsec_` and 32 base62 characters (190 bits). */
export const newSigningSecret = (): string => `whsec_${randomBase62(32)}`

/** Integrations, always confined to one Store except for the operator's update by id. */
export class Integrations extends Context.Service<Integrations, {
  readonly create: (storeId: number, input: {
    readonly name: string | null
    readonly createProductUrl: string
    readonly enabled: boolean
  }) => Effect.Effect<IntegrationRecord, ValidationFailed>
  readonly update: (id: number, patch: {
    readonly enabled?: boolean
    readonly createProductUrl?: string
  }) => Effect.Effect<IntegrationRecord, NotFound | ValidationFailed>
  /**
   * The integration a request names by id, checked for the Store (and, with `enabled`, for being
   * enabled); a fault at `pointer` otherwise. Another Store's integration is reported as unknown.
   */
  readonly usable: (
    storeId: number,
    id: number,
    use: IntegrationUse,
    pointer: string
  ) => Effect.Effect<IntegrationRecord, ValidationFailed>
  /** The Store's first enabled integration (lowest id), for requests that name none. */
  readonly firstEnabled: (storeId: number) => Effect.Effect<Option.Option<IntegrationRecord>>
}>()("signcraft/Integrations") {
  static readonly layer = Layer.effect(
    Integrations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox
      // The signing secret is stored sealed and opened only where a record is made of it.
      const opened = (row: IntegrationRecord): IntegrationRecord => ({ ...row, signingSecret: box.open(row.signingSecret) })
      const first = (rows: ReadonlyArray<unknown>) => Effect.map(firstRecord(rows), Option.map(opened))
      const single = (rows: ReadonlyArray<unknown>) => Effect.map(singleRecord(rows), opened)
      const guard = yield* DeliveryUrlGuard
      const columns = sql.unsafe(`id, store_id, name, create_product_url, enabled, signing_secret,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at`)

      // The webhook subscriptions' rule: in production the name must resolve to public addresses only.
      const checkUrl = (raw: string) =>
        guard.check(raw).pipe(
          Effect.asVoid,
          Effect.mapError((fault) =>
            new ValidationFailed({ errors: [{ pointer: "/create_product_url", code: fault.code, detail: fault.detail }] })
          )
        )

      const byId = (id: number) =>
        !isStorableId(id) ? Effect.succeed(Option.none<IntegrationRecord>()) : sql`
          SELECT ${columns} FROM integrations WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(first))

      return Integrations.of({
        create: Effect.fn("Integrations.create")(function*(storeId, input) {
            yield* checkUrl(input.createProductUrl)
            const rows = yield* sql`
              INSERT INTO integrations ${sql.insert({
                store_id: storeId,
                name: input.name,
                create_product_url: input.createProductUrl,
                enabled: input.enabled,
                signing_secret: box.seal(newSigningSecret())
              })}
              RETURNING ${columns}`
            return yield* single(rows)
          }, Effect.catchTag("SqlError", Effect.die)),
        update: Effect.fn("Integrations.update")(function*(id, patch) {
            if (patch.createProductUrl !== undefined) yield* checkUrl(patch.createProductUrl)
            const current = yield* byId(id)
            if (Option.isNone(current)) return yield* new NotFound({ resource: "integration" })
            const rows = yield* sql`
              UPDATE integrations SET
                enabled = ${patch.enabled ?? current.value.enabled},
                create_product_url = ${patch.createProductUrl ?? current.value.createProductUrl},
                updated_at = now()
              WHERE id = ${id} RETURNING ${columns}`
            return yield* single(rows)
          }, Effect.catchTag("SqlError", Effect.die)),
        usable: Effect.fn("Integrations.usable")(function*(storeId, id, use, pointer) {
            const found = Option.getOrUndefined(yield* byId(id))
            return yield* Effect.fromResult(checkIntegrationUse(found, storeId, use, pointer))
          }),
        firstEnabled: (storeId) =>
          sql`
            SELECT ${columns} FROM integrations WHERE store_id = ${storeId} AND enabled ORDER BY id LIMIT 1`.pipe(
            Effect.orDie,
            Effect.flatMap(first)
          )
      })
    })
  ).pipe(Layer.provide(SecretBox.layer))
}
