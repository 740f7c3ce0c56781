import { describe, expect, it } from "vitest"
import { clientAddressOf, parseTrustProxy, quotaAddress, TRUST_NO_PROXY, type TrustProxy } from "../../src/domain/deployment/client-address.js"

const trust = (value: string): TrustProxy => {
  const parsed = parseTrustProxy(value)
  if ("fault" in parsed) throw new Error(parsed.fault)
  return parsed
}

describe("TRUST_PROXY", () => {
  it("believes no X-Forwarded-For by default: the socket's peer is the client", () => {
    expect(clientAddressOf("198.51.100.7", "203.0.113.1", TRUST_NO_PROXY)).toBe("198.51.100.7")
  })

  it("believes exactly the trusted hops, read from the right, so a client-written entry never counts", () => {
    // The client wrote 6.6.6.6 itself; the one proxy appended what it saw.
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, 203.0.113.9", trust("1"))).toBe("203.0.113.9")
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.1", trust("2"))).toBe("203.0.113.9")
    // Fewer hops than trusted: the furthest one there is.
    expect(clientAddressOf("10.0.0.2", "203.0.113.9", trust("3"))).toBe("203.0.113.9")
    expect(clientAddressOf("10.0.0.2", undefined, trust("1"))).toBe("10.0.0.2")
  })

  it("walks back through proxies inside the trusted ranges and stops at the first address outside them", () => {
    const ranges = trust("10.0.0.0/8, 192.168.1.1, fd00::/8")
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, 203.0.113.9, 192.168.1.1", ranges)).toBe("203.0.113.9")
    expect(clientAddressOf("fd00::1", "2001:db8::5", ranges)).toBe("2001:db8::5")
    // The peer itself is not a trusted proxy: its X-Forwarded-For is not believed at all.
    expect(clientAddressOf("203.0.113.50", "6.6.6.6", ranges)).toBe("203.0.113.50")
    // An unparseable hop ends the walk at the last trusted proxy.
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, not-an-address", ranges)).toBe("10.0.0.2")
  })

  it("refuses values that are neither a hop count nor addresses and CIDRs", () => {
    for (const value of ["-1", "99", "10.0.0.0/33", "proxy", ""]) expect("fault" in parseTrustProxy(value), value).toBe(true)
  })

  it("counts IPv6 clients by their /64 and IPv4-mapped clients as IPv4", () => {
    expect(quotaAddress("2001:db8:1:2:aaaa::1")).toBe(quotaAddress("2001:db8:1:2:bbbb::2"))
    expect(quotaAddress("2001:db8:1:2::1")).not.toBe(quotaAddress("2001:db8:1:3::1"))
    expect(quotaAddress("::ffff:203.0.113.9")).toBe("203.0.113.9")
    expect(quotaAddress("203.0.113.9")).toBe("203.0.113.9")
  })

  it("reads every address form ipaddr.js does (hex, IPv4-mapped in hex), and passes a host's label through", () => {
    expect(quotaAddress("0xCB.0x00.0x71.0x09")).toBe("203.0.113.9")
    expect(quotaAddress("::FFFF:CB00:7109")).toBe("203.0.113.9")
    expect(quotaAddress("unknown")).toBe("unknown")
    expect(clientAddressOf("10.0.0.2", "0xCB007109", { _tag: "Hops", hops: 1 })).toBe("0xCB007109")
  })
})
