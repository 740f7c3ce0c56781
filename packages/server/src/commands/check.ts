import { SigncraftClient } from "@signcraft/client"
import { type CommandContext, describeError } from "./context.js"

/** `data` of `GET /api/v3/stores/me`: the members `check` prints. */
interface StoreMe {
  readonly data: { readonly id: unknown; readonly platform: unknown; readonly scopes: ReadonlyArray<unknown> }
}

/**
 * `signcraft check`: the first step of every migration (Versioning rule 7): reads
 * `GET /api/v3/stores/me` and prints the Store's id, platform and scopes. Exit 0, or 1 on failure.
 */
export const runCheck = async (options: { readonly baseUrl: string; readonly json: boolean }, context: CommandContext): Promise<number> => {
  const apiKey = context.env.SIGNCRAFT_API_KEY
  if (apiKey === undefined || apiKey === "") {
    context.err("SIGNCRAFT_API_KEY is not set")
    return 1
  }
  const client = new SigncraftClient({
    baseUrl: options.baseUrl,
    apiKey,
    ...(context.fetch === undefined ? {} : { fetch: context.fetch })
  })
  try {
    const { body } = await client.request<StoreMe>("GET", "/api/v3/stores/me")
    const { id, platform, scopes } = body.data
    if (options.json) context.out(JSON.stringify({ id, platform, scopes }))
    else {
      context.out(`id: ${String(id)}`)
      context.out(`platform: ${String(platform)}`)
      context.out(`scopes: ${scopes.map(String).join(" ")}`)
    }
    return 0
  } catch (error) {
    context.err(`check failed: ${describeError(error)}`)
    return 1
  }
}
