import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeSingleRow } from "../storage/rows.js"

const SecretRow = Schema.Struct({ secret: Schema.String })

/** The deployment's secret that signs v3 paging cursors, read once when the service starts. */
export class CursorKey extends Context.Service<CursorKey, {
  readonly secret: string
}>()("signcraft/CursorKey") {
  static readonly layer = Layer.effect(
    CursorKey,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT secret FROM service_secrets WHERE name = 'cursor_signing'`
      const { secret } = yield* decodeSingleRow(SecretRow)(rows)
      return CursorKey.of({ secret })
    }).pipe(Effect.orDie)
  )
}
