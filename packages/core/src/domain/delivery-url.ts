import { BlockList, isIPv4, isIPv6 } from "node:net"
import { Result } from "effect"
import type { Environment } from "../services/settings.js"

/**
 * Where the service may send deliveries (integration callbacks, webhooks), operating contract §1:
 * in `production` only HTTPS URLs whose host does not resolve to a loopback, private, link-local
 * or metadata address; in `development` and `test` also plain HTTP on loopback. This module is
 * the pure half (URL shape, address classes); `services/delivery-http.ts` applies the address
 * rule to what DNS answers, at connection time.
 */

/** What an IP address is, for the delivery policy. */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "reserved"

const ipv4Ranges: ReadonlyArray<readonly [string, number, AddressClass]> = [
  ["169.254.169.254", 32, "metadata"],
  ["100.100.100.200", 32, "metadata"],
  ["0.0.0.0", 8, "unspecified"],
  ["127.0.0.0", 8, "loopback"],
  ["10.0.0.0", 8, "private"],
  ["172.16.0.0", 12, "private"],
  ["192.168.0.0", 16, "private"],
  ["100.64.0.0", 10, "private"],
  ["169.254.0.0", 16, "link_local"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"]
]

const ipv6Ranges: ReadonlyArray<readonly [string, number, AddressClass]> = [
  ["fd00:ec2::254", 128, "metadata"],
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["fc00::", 7, "private"],
  ["fec0::", 10, "private"],
  ["fe80::", 10, "link_local"],
  ["ff00::", 8, "multicast"],
  ["2001:db8::", 32, "reserved"],
  ["100::", 64, "reserved"]
]

// One BlockList per class, checked in table order so the most specific class wins.
const lists = (() => {
  const byClass: Array<readonly [AddressClass, BlockList]> = []
  const listFor = (klass: AddressClass) => {
    const found = byClass.find(([k]) => k === klass)
    if (found !== undefined) return found[1]
    const list = new BlockList()
    byClass.push([klass, list])
    return list
  }
  for (const [address, prefix, klass] of ipv4Ranges) listFor(klass).addSubnet(address, prefix, "ipv4")
  for (const [address, prefix, klass] of ipv6Ranges) listFor(klass).addSubnet(address, prefix, "ipv6")
  return byClass
})()

// IPv4 embedded in IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d) is the IPv4 address.
const embeddedIpv4 = (address: string): string | undefined => {
  const match = /^(?:::ffff:|64:ff9b::)(?:0:)?(.+)$/i.exec(address)
  if (match === null) return undefined
  const tail = match[1] ?? ""
  if (isIPv4(tail)) return tail
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail)
  if (hex === null) return undefined
  const high = Number.parseInt(hex[1] ?? "0", 16)
  const low = Number.parseInt(hex[2] ?? "0", 16)
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

/** Classifies an IPv4 or IPv6 address literal; anything that is not one is `reserved`. */
export const classifyAddress = (address: string): AddressClass => {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const family = isIPv4(bare) ? "ipv4" : isIPv6(bare) ? "ipv6" : undefined
  if (family === undefined) return "reserved"
  if (family === "ipv6") {
    const inner = embeddedIpv4(bare)
    if (inner !== undefined) return classifyAddress(inner)
  }
  for (const [klass, list] of lists) if (list.check(bare, family)) return klass
  return "public"
}

/** Whether the service may connect to this address in this environment. */
export const isDeliverableAddress = (address: string, environment: Environment): boolean =>
  environment !== "production" || classifyAddress(address) === "public"

/** Why a URL cannot be a delivery target; `code` is stable, `detail` is for people. */
export interface DeliveryUrlFault {
  readonly code: "invalid_url" | "unsupported_scheme" | "https_required" | "credentials_in_url" | "forbidden_address"
  readonly detail: string
}

const LOCAL_NAMES = /(^|\.)localhost\.?$|^metadata\.google\.internal\.?$/i

const hostOf = (url: URL): string =>
  url.hostname.startsWith("[") && url.hostname.endsWith("]") ? url.hostname.slice(1, -1) : url.hostname

/** Whether the URL's host is a loopback name or literal (`localhost`, 127.0.0.0/8, ::1). */
export const isLoopbackHost = (url: URL): boolean => {
  const host = hostOf(url)
  return /^localhost\.?$/i.test(host) || classifyAddress(host) === "loopback"
}

const fault = (code: DeliveryUrlFault["code"], detail: string) => Result.fail<DeliveryUrlFault>({ code, detail })

/**
 * Checks a delivery URL's shape for an environment, without DNS: an absolute http(s) URL with
 * no credentials; in production HTTPS whose host is not a local name or a non-public address
 * literal; elsewhere HTTPS anywhere or plain HTTP on loopback. Names are checked again once
 * resolved, when connecting.
 */
export const checkDeliveryUrl = (raw: string, environment: Environment): Result.Result<URL, DeliveryUrlFault> => {
  if (!URL.canParse(raw)) return fault("invalid_url", "Must be an absolute URL.")
  const url = new URL(raw)
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return fault("unsupported_scheme", "Must be an https URL.")
  }
  if (url.username !== "" || url.password !== "") {
    return fault("credentials_in_url", "Must not carry credentials; deliveries are signed instead.")
  }
  if (environment === "production") {
    if (url.protocol !== "https:") return fault("https_required", "Must be an https URL in production.")
    const host = hostOf(url)
    const literal = isIPv4(host) || isIPv6(host)
    if (LOCAL_NAMES.test(host) || (literal && classifyAddress(host) !== "public")) {
      return fault("forbidden_address", "Must not point at a loopback, private, link-local or metadata address.")
    }
    return Result.succeed(url)
  }
  if (url.protocol === "http:" && !isLoopbackHost(url)) {
    return fault("https_required", "Must be an https URL; plain http is accepted on loopback only.")
  }
  return Result.succeed(url)
}
