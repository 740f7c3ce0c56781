import type { UsageRecord } from "../../domain/credentials/deprecated-usage-record.js"
import type { ApiKeyRecord } from "../../domain/credentials/api-key-record.js"
import { readableInstant } from "./dates.js"

/** One deprecated operation a key still calls. */
export interface DeprecatedCallView {
  readonly operation: string
  readonly count: number
  readonly lastUsed: string
}

/** A key that still calls the previous generation, and what it calls. */
export interface KeyMigrationView {
  readonly keyId: number
  /** The key's prefix, or its id when it has been revoked since (its calls still count). */
  readonly key: string
  readonly revoked: boolean
  readonly calls: ReadonlyArray<DeprecatedCallView>
}

/**
 * The Store's keys that called deprecated operations, each with those operations (count and last
 * use), keys in id order. `liveKeys` names them; a key not among them was revoked since.
 */
export const keyMigrationViews = (usage: ReadonlyArray<UsageRecord>, liveKeys: ReadonlyArray<ApiKeyRecord>): ReadonlyArray<KeyMigrationView> => {
  const byKey = new Map<number, Array<DeprecatedCallView>>()
  for (const record of usage) {
    const calls = byKey.get(record.apiKeyId) ?? []
    calls.push({ operation: record.operation, count: record.count, lastUsed: readableInstant(record.lastSeenAt) })
    byKey.set(record.apiKeyId, calls)
  }
  return [...byKey].sort(([a], [b]) => a - b).map(([keyId, calls]) => {
    const live = liveKeys.find((key) => key.id === keyId)
    return { keyId, key: live?.prefix ?? `key ${keyId}`, revoked: live === undefined, calls }
  })
}
