import { describe, expect, it } from "vitest"
import { checkDeliveryUrl, isForbiddenAddress } from "../../src/domain/outbound/delivery-url.js"

describe("isForbiddenAddress", () => {
  it.each([
    "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "100.100.100.200", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.0.170",
    "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
    "::ffff:7f00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:0001::1", "not-an-ip", "999.1.1.1"
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "allows public %s",
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false)
    }
  )
})

describe("checkDeliveryUrl", () => {
  it("allows plain HTTP on loopback outside production", () => {
    expect(checkDeliveryUrl("http://127.0.0.1:8080/hook", "development").ok).toBe(true)
    expect(checkDeliveryUrl("http://localhost/hook", "test").ok).toBe(true)
  })

  it("always refuses non-URLs, other schemes and credentials", () => {
    for (const environment of ["development", "production"] as const) {
      for (const raw of ["", "hook", "/relative", "ftp://example.com/", "javascript:alert(1)", "https://u:p@example.com/"]) {
        const judged = checkDeliveryUrl(raw, environment)
        expect(judged.ok, `${raw} in ${environment}`).toBe(false)
      }
    }
  })

  it("in production requires HTTPS and refuses internal hosts", () => {
    const fault = (raw: string) => {
      const judged = checkDeliveryUrl(raw, "production")
      return judged.ok ? undefined : judged.fault.code
    }
    expect(fault("http://example.com/hook")).toBe("insecure_url")
    expect(fault("https://localhost/hook")).toBe("forbidden_host")
    expect(fault("https://api.localhost/hook")).toBe("forbidden_host")
    expect(fault("https://metadata.google.internal/computeMetadata")).toBe("forbidden_host")
    expect(fault("https://169.254.169.254/latest/meta-data")).toBe("forbidden_host")
    expect(fault("https://[::1]/hook")).toBe("forbidden_host")
    expect(fault("https://[::ffff:10.0.0.1]/hook")).toBe("forbidden_host")
    expect(fault("https://10.0.0.8/hook")).toBe("forbidden_host")
    expect(fault("https://intranet/hook")).toBe("forbidden_host")
    expect(fault("https://example.com/hook")).toBeUndefined()
    expect(fault("https://93.184.215.14/hook")).toBeUndefined()
  })
})
