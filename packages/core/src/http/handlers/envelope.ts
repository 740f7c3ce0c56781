import { Effect } from "effect"
import { Settings } from "../../services/settings.js"
import { CurrentRequest, type RequestInfo } from "../request-info.js"

/** The documentation page the v3 envelope links to. */
export const documentationUrl = (baseUrl: string): string => `${baseUrl}/docs`

/** The v3 success envelope around one resource, for the request `info` describes. */
export const envelopeOf = <A>(data: A, info: RequestInfo, baseUrl: string) => ({
  data,
  links: { self: info.selfUrl, documentation: documentationUrl(baseUrl) },
  meta: { api_version: "v3" as const, request_id: info.requestId }
})

/** Wraps one resource in the v3 success envelope. */
export const envelope = <A>(data: A) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const info = yield* CurrentRequest
    return envelopeOf(data, info, settings.baseUrl)
  })
