/** Why a redirect URI was refused at registration. */
export type RedirectUriFault =
  | "not_absolute"
  | "scheme"
  | "not_loopback_http"
  | "fragment"
  | "credentials"
  | "wildcard"
  | "whitespace"
  | "too_long"

/** The verdict on one redirect URI offered at registration. */
export type RedirectUriVerdict =
  | { readonly _tag: "Accepted" }
  | { readonly _tag: "Refused"; readonly fault: RedirectUriFault; readonly detail: string }

const MAX_LENGTH = 2000
const LOOPBACK_V4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/

/** Whether a URL host names the loopback interface (`localhost`, 127.0.0.0/8 or `[::1]`). */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === "localhost" || hostname === "[::1]" || LOOPBACK_V4.test(hostname)

const refuse = (fault: RedirectUriFault, detail: string): RedirectUriVerdict => ({ _tag: "Refused", fault, detail })

// The authority as written, before URL parsing can normalise an empty `user@` away.
const rawAuthority = (uri: string): string => {
  const start = uri.indexOf("//")
  if (start === -1) return ""
  const rest = uri.slice(start + 2)
  const end = rest.search(/[/?#]/)
  return end === -1 ? rest : rest.slice(0, end)
}

/**
 * The registration rule for redirect URIs (docs/agent.md; RFC 8252 §7.3 for loopback):
 * HTTPS, or HTTP on a loopback host; no fragment (not even an empty one), no
 * credentials in the authority, no wildcard, no other scheme. Checked on the string
 * as sent, since the authorization request must later match it exactly.
 */
export const checkRedirectUri = (uri: string): RedirectUriVerdict => {
  if (uri.length > MAX_LENGTH) return refuse("too_long", `Redirect URIs are limited to ${MAX_LENGTH} characters.`)
  if (/[\s\p{Cc}]/u.test(uri)) return refuse("whitespace", "Redirect URIs must not contain spaces or control characters.")
  if (uri.includes("#")) return refuse("fragment", "Redirect URIs must not contain a fragment.")
  if (uri.includes("*")) return refuse("wildcard", "Redirect URIs must not contain wildcards.")
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return refuse("not_absolute", "Redirect URIs must be absolute URLs.")
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return refuse("scheme", "Redirect URIs must use https, or http on a loopback host.")
  }
  if (!uri.toLowerCase().startsWith(`${url.protocol}//`)) return refuse("not_absolute", "Redirect URIs must be absolute URLs.")
  if (rawAuthority(uri).includes("@") || url.username !== "" || url.password !== "") {
    return refuse("credentials", "Redirect URIs must not carry credentials.")
  }
  if (url.hostname === "") return refuse("not_absolute", "Redirect URIs must name a host.")
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return refuse("not_loopback_http", "Plain http redirect URIs are allowed only on a loopback host.")
  }
  return { _tag: "Accepted" }
}
