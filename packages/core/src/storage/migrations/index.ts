import { Migrator } from "effect/sql"
import foundation from "./0001_foundation.js"
import customisers from "./0002_customisers.js"
import commerce from "./0003_commerce.js"
import webhooks from "./0004_webhooks.js"
import oauth from "./0005_oauth.js"
import pricingDocumentText from "./0006_pricing_document_text.js"
import pricingIds from "./0007_pricing_ids.js"
import cursorSigningKey from "./0008_cursor_signing_key.js"
import webhookHealth from "./0009_webhook_health.js"
import orderTotalsShards from "./0010_order_totals_shards.js"
import orderTotalsBatches from "./0011_order_totals_batches.js"
import eventBodyOnly from "./0012_event_body_only.js"
import functionSearchPath from "./0013_function_search_path.js"
import idempotencyClaimOwner from "./0014_idempotency_claim_owner.js"
import oauthClientMetadataDocuments from "./0015_oauth_client_metadata_documents.js"
import webhookRecovery from "./0016_webhook_recovery.js"
import dashboardLastUsed from "./0017_dashboard_last_used.js"

const migrationModules = {
  "0001_foundation": foundation,
  "0002_customisers": customisers,
  "0003_commerce": commerce,
  "0004_webhooks": webhooks,
  "0005_oauth": oauth,
  "0006_pricing_document_text": pricingDocumentText,
  "0007_pricing_ids": pricingIds,
  "0008_cursor_signing_key": cursorSigningKey,
  "0009_webhook_health": webhookHealth,
  "0010_order_totals_shards": orderTotalsShards,
  "0011_order_totals_batches": orderTotalsBatches,
  "0012_event_body_only": eventBodyOnly,
  "0013_function_search_path": functionSearchPath,
  "0014_idempotency_claim_owner": idempotencyClaimOwner,
  "0015_oauth_client_metadata_documents": oauthClientMetadataDocuments,
  "0016_webhook_recovery": webhookRecovery,
  "0017_dashboard_last_used": dashboardLastUsed
}

/**
 * Every schema migration, in order. Migrations are Effects compiled into the
 * package (no files read at run time) and each runs inside the migrator's transaction.
 */
export const migrations = Migrator.fromRecord(migrationModules)

/** The id of the newest migration this release knows: a database migrated to it is ready for it. */
export const LATEST_MIGRATION_ID = Math.max(...Object.keys(migrationModules).map((key) => Number.parseInt(key, 10)))
