import { describe, expect, it } from "vitest"
import { checkDeliveryUrl, isForbiddenAddress } from "../../src/domain/outbound/delivery-url.js"

const verdict = (raw: string, env: "production" | "development" | "test") => {
  const checked = checkDeliveryUrl(raw, env)
  return checked.ok ? "ok" : checked.fault.code
}

describe("delivery URL policy (integration callbacks)", () => {
  it.each([
    "127.0.0.1", "127.255.0.9", "::1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1",
    "fd12::1", "169.254.1.1", "fe80::1", "169.254.169.254", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "::",
    "224.0.0.1", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:169.254.169.254", "64:ff9b::10.0.0.1", "nope"
  ])("forbids %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(["8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])("allows public %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false)
  })

  it("accepts public https in production and refuses plain http, loopback, private and metadata hosts", () => {
    expect(verdict("https://hooks.example.com/products", "production")).toBe("ok")
    expect(verdict("http://hooks.example.com/products", "production")).toBe("insecure_url")
    expect(verdict("http://127.0.0.1:9000/x", "production")).toBe("insecure_url")
    for (const host of ["127.0.0.1", "[::1]", "10.0.0.5", "169.254.169.254", "localhost", "api.localhost", "metadata.google.internal"]) {
      expect(verdict(`https://${host}/x`, "production"), host).toBe("forbidden_host")
    }
  })

  it("allows plain http on loopback in development and test", () => {
    for (const env of ["development", "test"] as const) {
      expect(verdict("http://127.0.0.1:9000/x", env)).toBe("ok")
      expect(verdict("http://localhost:9000/x", env)).toBe("ok")
    }
  })

  it("refuses other schemes, relative URLs and credentials everywhere", () => {
    for (const env of ["development", "test", "production"] as const) {
      expect(verdict("ftp://example.com/x", env)).toBe("invalid_url")
      expect(verdict("/relative", env)).toBe("invalid_url")
      expect(verdict("https://user:pw@example.com/x", env)).toBe("invalid_url")
    }
  })
})
