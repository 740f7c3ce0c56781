import { formatTimestampV3 } from "../domain/timestamp.js"
import type { UsageRecord } from "../domain/credentials/deprecated-usage-record.js"
import type { Connection } from "../domain/oauth/connection.js"
import type { Store } from "../domain/credentials/principal.js"
import type { IntegrationRecord } from "../domain/orders/integration-record.js"

/** A Store as the operator API shows it. */
export const operatorStoreView = (store: Store) => ({
  id: store.id,
  company_id: store.companyId,
  name: store.name,
  platform: store.platform,
  currency: store.currency
})

/** An integration as the operator API shows it; the signing secret is left out, since only creating one sets it. */
export const integrationView = (integration: IntegrationRecord) => ({
  id: integration.id,
  store_id: integration.storeId,
  name: integration.name,
  enabled: integration.enabled,
  create_product_url: integration.createProductUrl,
  created_at: integration.createdAt
})

/** A new integration as the operator API shows it, with the signing secret it was given (the merchant's own). */
export const createdIntegrationView = (integration: IntegrationRecord) => ({
  ...integrationView(integration),
  signing_secret: integration.signingSecret
})

/** One deprecated operation's use by one key, as the operator API shows it. */
export const deprecatedUsageView = (usage: UsageRecord) => ({
  api_key_id: usage.apiKeyId,
  operation: usage.operation,
  count: usage.count,
  last_seen_at: formatTimestampV3(usage.lastSeenAt)
})

/** A live connector grant as the operator API lists it. */
export const connectionView = (connection: Connection) => ({
  id: connection.id,
  client_id: connection.clientId,
  client_name: connection.clientName,
  person_id: connection.personId,
  scopes: connection.scopes,
  created_at: formatTimestampV3(connection.createdAt)
})
