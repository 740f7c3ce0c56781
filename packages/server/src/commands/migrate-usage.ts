import { SigncraftClient } from "@signcraft/client"
import { type CommandContext, describeError } from "./context.js"

/** One row of `GET /operator/v1/stores/{store_id}/deprecated-usage`. */
interface UsageRow {
  readonly api_key_id: unknown
  readonly operation: unknown
  readonly count: unknown
  readonly last_seen_at: unknown
}

/**
 * `signcraft migrate usage`: the deprecated operations each key of a Store still calls, with
 * counts and last use, from the operator API. Exit 0, or 1 on failure.
 */
export const runMigrateUsage = async (
  options: { readonly baseUrl: string; readonly storeId: string; readonly json: boolean },
  context: CommandContext
): Promise<number> => {
  const token = context.env.OPERATOR_TOKEN
  if (token === undefined || token === "") {
    context.err("OPERATOR_TOKEN is not set")
    return 1
  }
  const client = new SigncraftClient({
    baseUrl: options.baseUrl,
    apiKey: token,
    ...(context.fetch === undefined ? {} : { fetch: context.fetch })
  })
  try {
    const { body } = await client.request<{ readonly data: ReadonlyArray<UsageRow> }>(
      "GET",
      `/operator/v1/stores/${encodeURIComponent(options.storeId)}/deprecated-usage`
    )
    for (const row of body.data) {
      context.out(
        options.json
          ? JSON.stringify({ api_key_id: row.api_key_id, operation: row.operation, count: row.count, last_seen_at: row.last_seen_at })
          : `key ${String(row.api_key_id)}\t${String(row.operation)}\t${String(row.count)}\t${String(row.last_seen_at)}`
      )
    }
    if (body.data.length === 0) context.err("no deprecated operation was called by any key of this Store")
    return 0
  } catch (error) {
    context.err(`migrate usage failed: ${describeError(error)}`)
    return 1
  }
}
