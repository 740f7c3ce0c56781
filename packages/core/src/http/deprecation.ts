/** When the previous generation was deprecated: 22 July 2026, as Unix seconds (RFC 9745). */
export const DEPRECATED_AT_UNIX = 1784678400
/** When the previous generation may be removed (RFC 8594). */
export const SUNSET_HTTP_DATE = "Fri, 22 Jan 2027 00:00:00 GMT"

/** The headers every previous-generation response carries, errors included. */
export const deprecationHeaders = (baseUrl: string): Readonly<Record<string, string>> => ({
  deprecation: `@${DEPRECATED_AT_UNIX}`,
  sunset: SUNSET_HTTP_DATE,
  link: `<${baseUrl}/docs/migration>; rel=deprecation; type=text/html`
})
