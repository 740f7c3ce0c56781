import { Effect, Layer, Result } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DeliveryUrlGuard, guardedLookupFor } from "../src/services/outbound/delivery-url-guard.js"
import { defaultSettings, type Environment, Settings } from "../src/services/settings.js"
import { OutboundHttp } from "../src/services/outbound/outbound-http.js"

const check = (environment: Environment, url: string) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const guard = yield* DeliveryUrlGuard
      return yield* Effect.result(guard.check(url))
    }).pipe(Effect.provide(DeliveryUrlGuard.layer.pipe(Layer.provide(Layer.succeed(Settings, defaultSettings({ environment }))))))
  )

// The connect-time half of the policy alone: any URL text passes, the lookup decides.
const postThrough = (url: string, lookup: ReturnType<typeof guardedLookupFor> | undefined, timeoutMs = 5000) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const http = yield* OutboundHttp.make({ checkUrl: (raw) => Result.succeed(new URL(raw)), lookup }, { timeoutMs })
    return yield* http.post(url, { body: "{}", headers: {} }).pipe(
      Effect.match({
        onSuccess: (answer) => ({ _tag: "Answered", status: answer.status }),
        onFailure: (failure) => ({ _tag: "Failed", reason: failure.reason, error: failure.detail })
      })
    )
  })))

describe("DeliveryUrlGuard", () => {
  let port = 0
  let hits = 0
  const server = createServer((_req, res) => {
    hits += 1
    res.end("{}")
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("lets a loopback receiver through in development and test", async () => {
    expect((await check("development", `http://127.0.0.1:${port}/`))._tag).toBe("Success")
    expect((await check("test", `http://localhost:${port}/`))._tag).toBe("Success")
  })

  it("refuses loopback, private and metadata targets in production, names resolved", async () => {
    for (const url of [`https://127.0.0.1:${port}/`, "https://localhost/", "https://169.254.169.254/", "http://93.184.215.14/"]) {
      const result = await check("production", url)
      expect(result._tag, url).toBe("Failure")
    }
    // A public literal address needs no resolution and passes.
    expect((await check("production", "https://93.184.215.14/hook"))._tag).toBe("Success")
  })

  it("refuses at connection time when a name resolves to a forbidden address", async () => {
    const before = hits
    const refused = await postThrough(`http://localhost:${port}/`, guardedLookupFor(false))
    expect(refused).toEqual({ _tag: "Failed", reason: "forbidden_address", error: "EFORBIDDEN" })
    expect(hits).toBe(before)
    const allowed = await postThrough(`http://localhost:${port}/`, guardedLookupFor(true))
    expect(allowed).toEqual({ _tag: "Answered", status: 200 })
    expect(hits).toBe(before + 1)
  })

  it("refuses the metadata address and private, link-local and unspecified targets in every environment", async () => {
    const targets = [
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::a9fe:a9fe]/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
      "http://metadata.google.internal/",
      "http://10.0.0.1/",
      "http://172.16.0.1/",
      "http://192.168.1.1/",
      "http://[fe80::1]/",
      "http://0.0.0.0/",
      "http://[::]/",
      "http://192.88.99.1/",
      "http://[2001::1]/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[2002:a9fe:a9fe::1]/"
    ]
    for (const environment of ["development", "test", "production"] as const) {
      for (const url of targets) {
        const result = await check(environment, url.replace(/^http:/, environment === "production" ? "https:" : "http:"))
        expect(result._tag, `${environment} ${url}`).toBe("Failure")
        if (result._tag === "Failure") expect(result.failure.code).toBe("forbidden_host")
      }
    }
    // Public unicast passes everywhere; loopback only outside production.
    expect((await check("development", "http://93.184.215.14/"))._tag).toBe("Success")
    expect((await check("test", "http://[::1]:9/"))._tag).toBe("Success")
    expect((await check("production", "https://[::1]/"))._tag).toBe("Failure")
  })

  it("gives up on a receiver that does not answer within the timeout", async () => {
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const silentPort = (silent.address() as AddressInfo).port
    const outcome = await postThrough(`http://127.0.0.1:${silentPort}/`, undefined, 150)
    expect(outcome).toEqual({ _tag: "Failed", reason: "timeout", error: "timeout after 150 ms" })
    silent.closeAllConnections()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })
})
