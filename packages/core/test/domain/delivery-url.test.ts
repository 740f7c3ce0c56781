import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { checkDeliveryUrl, classifyAddress, isDeliverableAddress } from "../../src/domain/delivery-url.js"

const faultOf = (raw: string, env: "production" | "development" | "test") => {
  const checked = checkDeliveryUrl(raw, env)
  return Result.isFailure(checked) ? checked.failure.code : "ok"
}

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fd12::1", "private"],
    ["169.254.1.1", "link_local"],
    ["fe80::1", "link_local"],
    ["169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["192.0.2.10", "reserved"],
    ["not-an-ip", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
    ["64:ff9b::10.0.0.1", "private"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["2606:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"]
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected)
  })

  it("lets development and test reach any address, production only public ones", () => {
    expect(isDeliverableAddress("127.0.0.1", "test")).toBe(true)
    expect(isDeliverableAddress("127.0.0.1", "development")).toBe(true)
    expect(isDeliverableAddress("127.0.0.1", "production")).toBe(false)
    expect(isDeliverableAddress("10.0.0.1", "production")).toBe(false)
    expect(isDeliverableAddress("8.8.8.8", "production")).toBe(true)
  })
})

describe("checkDeliveryUrl", () => {
  it("accepts public https in production and refuses everything else", () => {
    expect(faultOf("https://hooks.example.com/products", "production")).toBe("ok")
    expect(faultOf("http://hooks.example.com/products", "production")).toBe("https_required")
    expect(faultOf("http://127.0.0.1:9000/x", "production")).toBe("https_required")
    expect(faultOf("https://127.0.0.1/x", "production")).toBe("forbidden_address")
    expect(faultOf("https://[::1]/x", "production")).toBe("forbidden_address")
    expect(faultOf("https://10.0.0.5/x", "production")).toBe("forbidden_address")
    expect(faultOf("https://169.254.169.254/latest/meta-data", "production")).toBe("forbidden_address")
    expect(faultOf("https://localhost/x", "production")).toBe("forbidden_address")
    expect(faultOf("https://api.localhost/x", "production")).toBe("forbidden_address")
    expect(faultOf("https://metadata.google.internal/x", "production")).toBe("forbidden_address")
  })

  it("allows plain http on loopback only outside production", () => {
    for (const env of ["development", "test"] as const) {
      expect(faultOf("http://127.0.0.1:9000/x", env)).toBe("ok")
      expect(faultOf("http://localhost:9000/x", env)).toBe("ok")
      expect(faultOf("http://[::1]:9000/x", env)).toBe("ok")
      expect(faultOf("https://hooks.example.com/x", env)).toBe("ok")
      expect(faultOf("http://hooks.example.com/x", env)).toBe("https_required")
      expect(faultOf("http://10.0.0.1/x", env)).toBe("https_required")
    }
  })

  it("refuses other schemes, relative URLs and credentials in every environment", () => {
    for (const env of ["development", "test", "production"] as const) {
      expect(faultOf("ftp://example.com/x", env)).toBe("unsupported_scheme")
      expect(faultOf("file:///etc/passwd", env)).toBe("unsupported_scheme")
      expect(faultOf("/relative", env)).toBe("invalid_url")
      expect(faultOf("https://user:pw@example.com/x", env)).toBe("credentials_in_url")
    }
  })
})
