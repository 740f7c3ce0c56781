import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { PricingContent } from "../../domain/pricing/content.js"
import { restorePricingIds } from "../../domain/pricing/identities.js"
import { decodeRows, JsonColumn, jsonParam, RowId, StoredDocument } from "../rows.js"

/**
 * Pricing identities (docs/pricing-ids.md). `pricing_last_id` is the customiser's id counter:
 * the last id given to one of its sizes or price lists. It lives on the customiser row, so a write
 * draws ids under the row lock it already holds, and it only grows, so no id is reused after its
 * element is deleted. `bigint`, because ids stored before this migration were chosen by clients.
 * Documents already stored get ids now (see `restorePricingIds`), so every element read has one.
 */
const PricingDocument = StoredDocument<PricingContent>()
const PricingRow = Schema.Struct({ id: RowId, pricing: JsonColumn(PricingDocument) })

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE customisers ADD COLUMN pricing_last_id bigint NOT NULL DEFAULT 0`
  const rows = yield* decodeRows(PricingRow)(yield* sql`SELECT id, pricing FROM customisers ORDER BY id`)
  for (const row of rows) {
    const restored = restorePricingIds(row.pricing)
    yield* sql`
      UPDATE customisers SET pricing = ${jsonParam(PricingDocument, restored.content)}, pricing_last_id = ${restored.lastId}
      WHERE id = ${row.id}`
  }
})
