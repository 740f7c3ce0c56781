import { Effect, Layer, Result } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DeliveryUrlGuard, guardedLookup } from "../src/services/delivery-url-guard.js"
import { defaultSettings, type Environment, Settings } from "../src/services/settings.js"
import { OutboundHttp } from "../src/services/outbound-http.js"

const check = (environment: Environment, url: string) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const guard = yield* DeliveryUrlGuard
      return yield* Effect.result(guard.check(url))
    }).pipe(Effect.provide(DeliveryUrlGuard.layer.pipe(Layer.provide(Layer.succeed(Settings, defaultSettings({ environment }))))))
  )

// The connect-time half of the policy alone: any URL text passes, the lookup decides.
const postThrough = (url: string, lookup: typeof guardedLookup | undefined, timeoutMs = 5000) =>
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
    const refused = await postThrough(`http://localhost:${port}/`, guardedLookup)
    expect(refused).toEqual({ _tag: "Failed", reason: "forbidden_address", error: "EFORBIDDEN" })
    expect(hits).toBe(before)
    const allowed = await postThrough(`http://localhost:${port}/`, undefined)
    expect(allowed).toEqual({ _tag: "Answered", status: 200 })
    expect(hits).toBe(before + 1)
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
