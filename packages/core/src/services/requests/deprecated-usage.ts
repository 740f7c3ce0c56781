import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, RowId, RowNumber, RowTimestamp } from "../../storage/rows.js"
import { snakeStruct } from "../../storage/table.js"
import type { UsageRecord } from "../../domain/credentials/deprecated-usage-record.js"

export type { UsageRecord } from "../../domain/credentials/deprecated-usage-record.js"

const UsageRow = snakeStruct({
  apiKeyId: RowId,
  operation: Schema.String,
  count: RowNumber,
  lastSeenAt: RowTimestamp
})

/** Counts calls of deprecated operations per API key: their removal depends on observed use. */
export class DeprecatedUsage extends Context.Service<DeprecatedUsage, {
  readonly record: (apiKeyId: number, operation: string) => Effect.Effect<void>
  readonly forStore: (storeId: number) => Effect.Effect<ReadonlyArray<UsageRecord>>
}>()("signcraft/DeprecatedUsage") {
  static readonly layer = Layer.effect(
    DeprecatedUsage,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return DeprecatedUsage.of({
        record: (apiKeyId, operation) =>
          sql`
            INSERT INTO deprecated_usage (api_key_id, operation, count) VALUES (${apiKeyId}, ${operation}, 1)
            ON CONFLICT (api_key_id, operation)
            DO UPDATE SET count = deprecated_usage.count + 1, last_seen_at = now()`.pipe(Effect.asVoid, Effect.orDie),
        forStore: (storeId) =>
          sql`
            SELECT u.api_key_id, u.operation, u.count, u.last_seen_at
            FROM deprecated_usage u JOIN api_keys k ON k.id = u.api_key_id
            WHERE k.store_id = ${storeId} ORDER BY u.api_key_id, u.operation`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeRows(UsageRow))
          )
      })
    })
  )
}
