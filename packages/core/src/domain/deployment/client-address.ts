import ipaddr from "ipaddr.js"

/**
 * Who the client is, behind the deployment's proxies (`TRUST_PROXY`, docs/configuration.md):
 * trust a number of hops, or the proxies within a list of address ranges. `X-Forwarded-For` is
 * read from the right, the end a trusted proxy appends to, so a client cannot choose its address
 * by writing the header itself.
 */
export type TrustProxy =
  | { readonly _tag: "Hops"; readonly hops: number }
  | { readonly _tag: "Ranges"; readonly ranges: ReadonlyArray<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]> }

const DOTTED_V4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/
// Every form ipaddr.js reads (dotted, hex, IPv6) is made of these; anything else, such as a host's
// "unknown" peer, is refused at once, where ipaddr.js would spend microseconds trying each form.
const ADDRESS_CHARACTERS = /^[0-9a-fx:.]+$/i

/** The default: no proxy is trusted, the socket's peer is the client. */
export const TRUST_NO_PROXY: TrustProxy = { _tag: "Hops", hops: 0 }

/** A `TRUST_PROXY` value: a hop count, or a comma list of CIDRs (or single addresses). */
export const parseTrustProxy = (value: string): TrustProxy | { readonly fault: string } => {
  const text = value.trim()
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    return Number.isSafeInteger(hops) && hops <= 32 ? { _tag: "Hops", hops } : { fault: "a hop count from 0 to 32" }
  }
  const ranges: Array<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]> = []
  for (const entry of text.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
    if (ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry))
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry)
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128])
    } else return { fault: "a hop count, or a comma list of addresses and CIDRs such as 10.0.0.0/8" }
  }
  return ranges.length === 0 ? { fault: "a hop count, or a comma list of addresses and CIDRs" } : { _tag: "Ranges", ranges }
}

const parsed = (address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  const text = address.trim().split("%")[0] ?? ""
  if (!ADDRESS_CHARACTERS.test(text) || !ipaddr.isValid(text)) return undefined
  const value = ipaddr.parse(text)
  return value.kind() === "ipv6" && (value as ipaddr.IPv6).isIPv4MappedAddress() ? (value as ipaddr.IPv6).toIPv4Address() : value
}

const trusted = (address: string, ranges: ReadonlyArray<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]>): boolean => {
  const value = parsed(address)
  if (value === undefined) return false
  return ranges.some(([range, bits]) =>
    value.kind() === "ipv4"
      ? range.kind() === "ipv4" && (value as ipaddr.IPv4).match(range as ipaddr.IPv4, bits)
      : range.kind() === "ipv6" && (value as ipaddr.IPv6).match(range as ipaddr.IPv6, bits)
  )
}

/**
 * The client's address: the socket's `peer`, or as far back along `X-Forwarded-For` as the
 * trusted proxies reach (an unparseable hop ends the walk: nothing past it can be trusted).
 */
export const clientAddressOf = (peer: string, forwardedFor: string | undefined, trust: TrustProxy): string => {
  const hops = forwardedFor === undefined ? [] : forwardedFor.split(",").map((hop) => hop.trim()).reverse()
  const chain = [peer, ...hops]
  let at = 0
  const canStep = () => at + 1 < chain.length && parsed(chain[at + 1] ?? "") !== undefined
  if (trust._tag === "Hops") {
    while (at < trust.hops && canStep()) at += 1
  } else {
    while (trusted(chain[at] ?? "", trust.ranges) && canStep()) at += 1
  }
  return chain[at] ?? peer
}

/**
 * The address quotas count a client by: an IPv4 address (IPv4-mapped IPv6 included) as it is,
 * an IPv6 address by its /64, the smallest block a provider gives one subscriber.
 */
export const quotaAddress = (address: string): string => {
  // The common case, a dotted IPv4 address, needs no parsing.
  if (DOTTED_V4.test(address)) return address
  const value = parsed(address)
  if (value === undefined) return address
  if (value.kind() === "ipv4") return value.toString()
  const parts = (value as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16))
  return `${parts.join(":")}::/64`
}
