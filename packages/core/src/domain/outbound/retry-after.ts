/**
 * `Retry-After` in ms (RFC 9110 §10.2.3: delay-seconds or an HTTP-date, the latter relative
 * to `nowMs`); undefined when absent or malformed.
 */
export const parseRetryAfterMs = (header: string | null | undefined, nowMs: number): number | undefined => {
  if (header === null || header === undefined) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) || !/[a-z]/i.test(value) ? undefined : Math.max(0, date - nowMs)
}
