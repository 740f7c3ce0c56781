import { isIP } from "node:net"

/**
 * Where the service may send HTTP requests on a merchant's behalf (webhook deliveries,
 * integration callbacks). Operating contract §1: in production only HTTPS, and never to a
 * loopback, private, link-local or cloud metadata address; in development and test plain HTTP
 * (loopback included) is allowed so a local receiver can be used.
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

// Names that always mean "this machine" or a cloud metadata service, whatever DNS says.
const FORBIDDEN_NAMES = ["localhost", "metadata", "metadata.google.internal", "metadata.goog", "instance-data"]

const parseV4 = (address: string): ReadonlyArray<number> | undefined => {
  const parts = address.split(".").map(Number)
  return parts.length === 4 && parts.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? parts : undefined
}

const v4Forbidden = (address: string): boolean => {
  const octets = parseV4(address)
  if (octets === undefined) return true
  const [a = 0, b = 0, c = 0] = octets
  return a === 0 || // "this network", 0.0.0.0
    a === 10 || // private
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT (also Alibaba metadata 100.100.100.200)
    (a === 169 && b === 254) || // link-local, AWS/GCP/Azure metadata 169.254.169.254
    (a === 172 && b >= 16 && b <= 31) || // private
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 192 && b === 168) || // private
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
}

// Expands an IPv6 address (possibly with an embedded IPv4 tail) into eight 16-bit groups.
const v6Groups = (address: string): ReadonlyArray<number> | undefined => {
  let text = address.toLowerCase().split("%")[0] ?? ""
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (tail?.[1] !== undefined) {
    const v4 = parseV4(tail[1])
    if (v4 === undefined) return undefined
    const [a = 0, b = 0, c = 0, d = 0] = v4
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = halves[0] === "" || halves[0] === undefined ? [] : halves[0].split(":")
  const rest = halves.length === 2 ? (halves[1] === "" || halves[1] === undefined ? [] : halves[1].split(":")) : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined
  const groups = [...head, ...Array<string>(Math.max(0, missing)).fill("0"), ...rest].map((g) => Number.parseInt(g, 16))
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined
}

const v6Forbidden = (address: string): boolean => {
  const g = v6Groups(address)
  if (g === undefined) return true
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const embeddedV4 = `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`
  const firstFive = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0
  if (firstFive && g5 === 0xffff) return v4Forbidden(embeddedV4) // IPv4-mapped
  if (firstFive && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true // unspecified, loopback
  if (g0 === 0x64 && g1 === 0xff9b) return v4Forbidden(embeddedV4) // NAT64 of an IPv4 address
  if (g0 === 0x2002) return v4Forbidden(`${g1 >> 8}.${g1 & 0xff}.${g2 >> 8}.${g2 & 0xff}`) // 6to4
  return (g0 & 0xfe00) === 0xfc00 || // unique local (AWS metadata fd00:ec2::254 included)
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xffc0) === 0xfec0 || // site-local (deprecated, still routable inside sites)
    (g0 & 0xff00) === 0xff00 || // multicast
    (g0 === 0x2001 && g1 === 0x0db8) // documentation
}

/**
 * Whether a resolved IP address must never receive a delivery in production: loopback, private,
 * link-local, carrier-grade NAT, metadata, multicast and other non-public ranges, IPv4 and IPv6
 * (IPv4-mapped and NAT64 forms judged by their IPv4 address). Anything unparseable is forbidden.
 */
export const isForbiddenAddress = (address: string): boolean => {
  const family = isIP(address.split("%")[0] ?? "")
  if (family === 4) return v4Forbidden(address)
  if (family === 6) return v6Forbidden(address)
  return true
}

/** Host of a parsed URL without IPv6 brackets and without a trailing dot. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()

/**
 * Judges a delivery URL's text. Always: an absolute `http` or `https` URL without credentials.
 * In production also: `https` only, not a forbidden name, and not a literal forbidden address.
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
  if (environment !== "production") return { ok: true, url }
  if (url.protocol !== "https:") {
    return { ok: false, fault: { code: "insecure_url", detail: "Must use https." } }
  }
  const host = hostOf(url)
  const literal = isIP(host) !== 0
  if (
    FORBIDDEN_NAMES.includes(host) || host.endsWith(".localhost") || host.endsWith(".internal") ||
    (literal && isForbiddenAddress(host)) || (!literal && !host.includes("."))
  ) {
    return {
      ok: false,
      fault: { code: "forbidden_host", detail: "Must not point at a loopback, private, link-local or metadata address." }
    }
  }
  return { ok: true, url }
}
