/** What the envelope needs to know of the request it answers. */
export interface EnvelopeRequest {
  readonly selfUrl: string
  readonly requestId: string
}

/** The documentation page the v3 envelope links to. */
export const documentationUrl = (baseUrl: string): string => `${baseUrl}/docs`

/** The v3 success envelope around one resource, for the request `info` describes. */
export const envelopeOf = <A>(data: A, info: EnvelopeRequest, baseUrl: string) => ({
  data,
  links: { self: info.selfUrl, documentation: documentationUrl(baseUrl) },
  meta: { api_version: "v3" as const, request_id: info.requestId }
})
