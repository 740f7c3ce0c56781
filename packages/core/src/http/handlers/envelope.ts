import { Effect } from "effect"
import { Settings } from "../../services/settings.js"
import { CurrentRequest } from "../request-info.js"

/** The documentation page the v3 envelope links to. */
export const documentationUrl = (baseUrl: string): string => `${baseUrl}/docs`

/** Wraps one resource in the v3 success envelope. */
export const envelope = <A>(data: A) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const info = yield* CurrentRequest
    return {
      data,
      links: { self: info.selfUrl, documentation: documentationUrl(settings.baseUrl) },
      meta: { api_version: "v3" as const, request_id: info.requestId }
    }
  })
