import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeSingleRow } from "../../storage/rows.js"
import { SecretBox } from "./secret-box.js"

const SecretRow = Schema.Struct({ secret: Schema.String })

/**
 * The deployment's secret that signs v3 paging cursors, read once when the service starts. It is
 * stored sealed (`services/credentials/secrets-at-rest.ts` seals one written before sealing); a plaintext one
 * still opens to itself.
 */
export class CursorKey extends Context.Service<CursorKey, {
  readonly secret: string
}>()("signcraft/CursorKey") {
  static readonly layer = Layer.effect(
    CursorKey,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT secret FROM service_secrets WHERE name = 'cursor_signing'`
      const { secret } = yield* decodeSingleRow(SecretRow)(rows)
      return CursorKey.of({ secret: (yield* SecretBox).open(secret) })
    }).pipe(Effect.orDie)
  ).pipe(Layer.provide(SecretBox.layer))
}
