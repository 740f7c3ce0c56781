import { isIP } from "node:net"
import ipaddr from "ipaddr.js"

/**
 * Where the service may send HTTP requests on a merchant's behalf (webhook deliveries,
 * integration callbacks; docs/security.md). In every environment never to a link-local,
 * metadata, private or unspecified address; in production HTTPS only and no loopback either, while
 * development and test allow plain HTTP and loopback so a local receiver can be used.
 *
 * This module is pure: {@link checkDeliveryUrl} judges the URL text, {@link isForbiddenAddress}
 * judges one resolved address. Resolving names is the caller's job, done again at connection
 * time so a name cannot be re-pointed at an internal address after it was checked.
 */

/** The environments that decide how strict the rule is. */
export type UrlPolicyEnvironment = "development" | "test" | "production"

/** Why a delivery URL was refused; `detail` is safe to show to the merchant. */
export interface DeliveryUrlFault {
  readonly code: "invalid_url" | "insecure_url" | "forbidden_host"
  readonly detail: string
}

// Names that always mean a cloud metadata service (or, in production, this machine), whatever DNS says.
const METADATA_NAMES = ["metadata", "metadata.google.internal", "metadata.goog", "instance-data"]
const LOOPBACK_NAMES = ["localhost"]

/** Whether loopback receivers are allowed: outside production, so a local receiver can be used. */
export const allowsLoopback = (environment: UrlPolicyEnvironment): boolean => environment !== "production"

// A positive test, from a well-kept address library: an address may receive requests only when
// ipaddr.js classes it as public unicast (or loopback, where allowed). IPv4-mapped addresses are
// judged as the IPv4 address they carry; the deprecated IPv4-compatible form (::a.b.c.d), which
// the library calls unicast, is refused, as are NAT64, 6to4, Teredo and every reserved range.
const isAllowedAddress = (address: string, loopback: boolean): boolean => {
  const text = address.split("%")[0] ?? ""
  if (!ipaddr.isValid(text)) return false
  const parsed = ipaddr.parse(text)
  const judged = parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed
  const range = judged.range()
  if (judged.kind() === "ipv6" && range === "unicast" && (judged as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    return false
  }
  return range === "unicast" || (loopback && range === "loopback")
}

/**
 * Whether a resolved IP address must never receive a delivery or a callback: anything but public
 * unicast, except loopback when `allowLoopback` (development and test). Unparseable is forbidden.
 */
export const isForbiddenAddress = (address: string, allowLoopback = false): boolean => !isAllowedAddress(address, allowLoopback)

/** The fault of a URL whose host is, or resolves to, an address that may not be called. */
export const FORBIDDEN_HOST: DeliveryUrlFault = {
  code: "forbidden_host",
  detail: "Must not point at a link-local, metadata, private or unspecified address."
}

/** Host of a parsed URL without IPv6 brackets and without a trailing dot. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()

/**
 * Judges a delivery URL's text. Always: an absolute `http` or `https` URL without credentials, not
 * a metadata name, and not a literal address outside public unicast (loopback allowed outside
 * production). In production also: `https` only, not a loopback name, and a name with a dot.
 * (Names are resolved and checked by the caller, at subscription time and again on connect.)
 */
export const checkDeliveryUrl = (
  raw: string,
  environment: UrlPolicyEnvironment
): { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly fault: DeliveryUrlFault } => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, fault: { code: "invalid_url", detail: "Must be an absolute http or https URL." } }
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, fault: { code: "invalid_url", detail: "Must be an absolute http or https URL." } }
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, fault: { code: "invalid_url", detail: "Must not carry credentials; authenticate deliveries with the signature." } }
  }
  const production = environment === "production"
  if (production && url.protocol !== "https:") {
    return { ok: false, fault: { code: "insecure_url", detail: "Must use https." } }
  }
  const host = hostOf(url)
  const literal = isIP(host) !== 0
  const loopbackName = LOOPBACK_NAMES.includes(host) || host.endsWith(".localhost")
  if (
    METADATA_NAMES.includes(host) || host.endsWith(".internal") ||
    (literal && isForbiddenAddress(host, allowsLoopback(environment))) ||
    (production && (loopbackName || (!literal && !host.includes("."))))
  ) {
    return { ok: false, fault: FORBIDDEN_HOST }
  }
  return { ok: true, url }
}

