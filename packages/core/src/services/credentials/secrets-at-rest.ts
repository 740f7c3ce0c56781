import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { PLAIN_PREFIX, SEALED_PREFIX } from "../../domain/credentials/secret-box.js"
import { decodeRows, RowId } from "../../storage/rows.js"
import { SecretBox } from "./secret-box.js"
import { snakeStruct } from "../../storage/table.js"

const SecretRow = Schema.Struct({ id: RowId, secret: Schema.String })
const KeyRow = Schema.Struct({ kid: Schema.String, jwk: Schema.String })
const AnswerRow = snakeStruct({ storeId: RowId, key: Schema.String, body: Schema.String })
const ServiceSecretRow = Schema.Struct({ name: Schema.String, secret: Schema.String })

/**
 * Seals every secret still stored in plaintext (rows written before `SECRETS_KEY` sealing):
 * webhook and integration signing secrets, the cursor-signing key, the authorization server's private keys and stored
 * idempotency answers (but those kept in plain on purpose: they hold no secret). Runs at every start in one transaction; rows already sealed are left alone,
 * so it is a no-op once done.
 */
export const sealPlaintextSecrets = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const box = yield* SecretBox
  const plaintext = `${SEALED_PREFIX}%`
  const subscriptions = yield* sql`SELECT id, secret FROM webhook_subscriptions WHERE secret NOT LIKE ${plaintext}`.pipe(
    Effect.flatMap(decodeRows(SecretRow))
  )
  for (const row of subscriptions) yield* sql`UPDATE webhook_subscriptions SET secret = ${box.seal(row.secret)} WHERE id = ${row.id}`
  const integrations = yield* sql`
    SELECT id, signing_secret AS secret FROM integrations WHERE signing_secret NOT LIKE ${plaintext}`.pipe(
    Effect.flatMap(decodeRows(SecretRow))
  )
  for (const row of integrations) yield* sql`UPDATE integrations SET signing_secret = ${box.seal(row.secret)} WHERE id = ${row.id}`
  const serviceSecrets = yield* sql`SELECT name, secret FROM service_secrets WHERE secret NOT LIKE ${plaintext}`.pipe(
    Effect.flatMap(decodeRows(ServiceSecretRow))
  )
  for (const row of serviceSecrets) yield* sql`UPDATE service_secrets SET secret = ${box.seal(row.secret)} WHERE name = ${row.name}`
  const keys = yield* sql`
    SELECT kid, private_jwk::text AS jwk FROM oauth_signing_keys WHERE jsonb_typeof(private_jwk) = 'object'`.pipe(
    Effect.flatMap(decodeRows(KeyRow))
  )
  for (const row of keys) {
    yield* sql`UPDATE oauth_signing_keys SET private_jwk = to_jsonb(${box.seal(row.jwk)}::text) WHERE kid = ${row.kid}`
  }
  const answers = yield* sql`
    SELECT store_id, idempotency_key AS key, response_body AS body FROM idempotency_keys
    WHERE response_body IS NOT NULL AND response_body NOT LIKE ${plaintext}
      AND response_body NOT LIKE ${`${PLAIN_PREFIX}%`}`.pipe(Effect.flatMap(decodeRows(AnswerRow)))
  for (const row of answers) {
    yield* sql`
      UPDATE idempotency_keys SET response_body = ${box.seal(row.body)}
      WHERE store_id = ${row.storeId} AND idempotency_key = ${row.key}`
  }
  return subscriptions.length + integrations.length + serviceSecrets.length + keys.length + answers.length
}).pipe(
  (effect) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(effect)),
  Effect.orDie
)
