import { afterAll, describe, expect, it } from "vitest"
import { clientAddressContext } from "../../src/http/request-info.js"
import { startApp } from "@signcraft/test-kit"

// Per-address quotas behind a proxy (docs/rate-limits.md): TRUST_PROXY decides which X-Forwarded-For hop is
// the client, and IPv6 clients share a quota per /64. A refused operator token spends one request
// of the address's quota, which makes the quota visible without touching anything else.
describe("client addresses behind proxies", () => {
  const behindProxy = startApp({ _tag: "Embedded", location: "memory" }, { rateLimitPerIpPerMinute: 2, trustProxy: { _tag: "Hops", hops: 1 } })
  const direct = startApp({ _tag: "Embedded", location: "memory" }, { rateLimitPerIpPerMinute: 2 })
  afterAll(async () => {
    await behindProxy.dispose()
    await direct.dispose()
  })

  const wrongToken = (app: ReturnType<typeof startApp>, peer: string, forwardedFor?: string) =>
    app.handler(
      new Request("http://127.0.0.1/operator/v1/companies", {
        method: "POST",
        headers: {
          authorization: "Bearer wrong",
          "content-type": "application/json",
          ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor })
        },
        body: "{}"
      }),
      clientAddressContext(peer)
    ).then((response) => response.status)

  it("with one trusted hop, counts each client by the address the proxy appended, whatever it wrote itself", async () => {
    const proxy = "10.0.0.1"
    expect(await wrongToken(behindProxy, proxy, "1.1.1.1, 203.0.113.10")).toBe(401)
    expect(await wrongToken(behindProxy, proxy, "2.2.2.2, 203.0.113.10")).toBe(401)
    // The third from 203.0.113.10 is over its quota, however it varies the part it writes.
    expect(await wrongToken(behindProxy, proxy, "3.3.3.3, 203.0.113.10")).toBe(429)
    // Another client behind the same proxy keeps its own quota.
    expect(await wrongToken(behindProxy, proxy, "203.0.113.11")).toBe(401)
  })

  it("by default believes no X-Forwarded-For, and counts IPv6 clients per /64", async () => {
    expect(await wrongToken(direct, "2001:db8:7:1::a", "203.0.113.20")).toBe(401)
    expect(await wrongToken(direct, "2001:db8:7:1::b", "203.0.113.21")).toBe(401)
    expect(await wrongToken(direct, "2001:db8:7:1:ffff::c", "203.0.113.22")).toBe(429)
    expect(await wrongToken(direct, "2001:db8:7:2::a")).toBe(401)
  })
})
