import { randomBytes } from "node:crypto"
import { type IncomingHttpHeaders, type OutgoingHttpHeaders, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { WebHandler } from "../../src/index.js"
import { makeEcho } from "./echo.js"
import { MAX_BODY_BYTES, OPERATOR_TOKEN, startSigncraft } from "./signcraft.js"

/** A framework serving a handler, as a client reaches it. */
export interface Host {
  /** Sends a request through the framework (`path` is absolute, with its query). */
  readonly fetch: (path: string, init?: RequestInit) => Promise<Response>
  /** The loopback port of a real listener; absent for hosts called in-process (Next.js). */
  readonly port?: number
  readonly close: () => Promise<void>
}

/** How a test file puts a framework in front of a handler. */
export interface HostDefinition {
  readonly name: string
  readonly start: (handler: WebHandler) => Promise<Host>
  /**
   * Mounts the handler under `prefix` the way the framework's users would, beside the host's own
   * `GET /host-route` (text) and, outside the prefix, `GET /api/v3/stores/me` (JSON `{ "host": true }`).
   */
  readonly startUnder: (handler: WebHandler, prefix: string) => Promise<Host>
  /** Headers a client sends so the host can name it, and the address signcraft should then see. */
  readonly client: { readonly headers: Record<string, string>; readonly expected: string }
  /** Whether the host is a real listener: only then can repeated header lines and disconnects be sent. */
  readonly listens: boolean
}

/** Listens on 127.0.0.1, port 0, and gives the port. */
export const listenOnLoopback = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })

/** Closes a listener, keep-alive connections included. */
export const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)))
    server.closeAllConnections()
  })

/** `fetch` against a loopback port. */
export const loopbackFetch = (port: number) => (path: string, init?: RequestInit) =>
  fetch(`http://127.0.0.1:${port}${path}`, init)

// node:http sends each value of an array header as its own line, which fetch cannot do.
const rawPost = (port: number, path: string, headers: OutgoingHttpHeaders) =>
  new Promise<{ readonly status: number; readonly headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers }, (res) => {
      res.resume()
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
    })
    req.on("error", reject)
    req.end("x")
  })

/** A body stream that delivers `bytes` in pieces cut at the given offsets. */
const streamOf = (bytes: Uint8Array, cuts: ReadonlyArray<number>): ReadableStream<Uint8Array> => {
  const bounds = [0, ...cuts, bytes.length]
  let index = 0
  return new ReadableStream({
    pull(controller) {
      const start = bounds[index]
      const end = bounds[index + 1]
      if (start === undefined || end === undefined) return controller.close()
      controller.enqueue(bytes.slice(start, end))
      index += 1
    }
  })
}

const streamed = (body: ReadableStream<Uint8Array>, init: RequestInit): RequestInit =>
  ({ ...init, body, duplex: "half" }) as RequestInit

const expectProblem = async (res: Response, status: number, code: string) => {
  expect(res.status).toBe(status)
  expect(res.headers.get("content-type")).toContain("application/problem+json")
  const body = await res.json()
  expect(body).toMatchObject({ status, code })
  expect(body.request_id).toMatch(/^req_/)
  expect(res.headers.get("x-request-id")).toBe(body.request_id)
  return body
}

/** The same black-box checks on every host: the adapter's contract, then signcraft itself. */
export const describeHost = (host: HostDefinition) => {
  describe(`${host.name}: what reaches the handler and what comes back`, () => {
    const echo = makeEcho()
    let server: Host
    beforeAll(async () => {
      server = await host.start(echo.handler)
    })
    afterAll(() => server.close())

    it("passes request bodies through byte for byte, whole or streamed", async () => {
      const bytes = new Uint8Array(randomBytes(200_000))
      const whole = await server.fetch("/bytes", { method: "POST", body: bytes })
      expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
      const json = new TextEncoder().encode(`{"name":"Zürich ✨ ${"x".repeat(1000)}"}`)
      const pieces = await server.fetch(
        "/bytes",
        streamed(streamOf(json, [3, 12, 13, 500]), { method: "PUT", headers: { "content-type": "application/json" } })
      )
      expect(Buffer.from(await pieces.arrayBuffer()).equals(Buffer.from(json))).toBe(true)
    })

    it("keeps the method, the full URL, the status and each Set-Cookie", async () => {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]) {
        const res = await server.fetch("/a/b%20c?x=1&y=%C3%A9", { method })
        expect(res.status, method).toBe(207)
        expect(res.headers.get("x-echo-method")).toBe(method)
        expect(res.headers.get("x-echo-url")).toBe("/a/b%20c?x=1&y=%C3%A9")
        expect(res.headers.getSetCookie()).toEqual(["first=1; Path=/; HttpOnly", "second=2; Path=/"])
      }
    })

    it("names the client's address to signcraft", async () => {
      const res = await server.fetch("/who", { headers: host.client.headers })
      expect(res.headers.get("x-echo-client")).toBe(host.client.expected)
    })

    it.runIf(host.listens)("keeps repeated request header lines", async () => {
      const res = await rawPost(server.port ?? 0, "/multi", { "x-multi": ["one", "two"], "content-type": "text/plain" })
      expect(res.status).toBe(207)
      expect(res.headers["x-echo-multi"]).toBe("one, two")
    })

    it.runIf(host.listens)("tells the handler when the client goes away", { timeout: 10_000 }, async () => {
      const controller = new AbortController()
      const pending = server.fetch("/hang", { signal: controller.signal }).then(
        () => "answered",
        () => "aborted"
      )
      await echo.probe.started
      controller.abort()
      await echo.probe.aborted
      expect(await pending).toBe("aborted")
    })
  })

  describe(`${host.name}: signcraft mounted over the embedded database`, () => {
    let app: Awaited<ReturnType<typeof startSigncraft>>
    let server: Host
    const operator = (method: string, path: string, body: string | object) =>
      server.fetch(`/operator/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body)
      })

    beforeAll(async () => {
      app = await startSigncraft()
      server = await host.start(app.handler)
      // The first request waits for the embedded database to start and migrate: pay it once, here.
      expect((await server.fetch("/healthz")).status).toBe(200)
    })
    afterAll(async () => {
      await server.close()
      await app.dispose()
    })

    it("answers GET /healthz with a request id", async () => {
      const res = await server.fetch("/healthz")
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: "ok" })
      expect(res.headers.get("x-request-id")).toMatch(/^req_/)
    })

    it("serves an authenticated GET /api/v3/stores/me after operator set-up", async () => {
      const company = await (await operator("POST", "/companies", { name: "Acme" })).json()
      const store = await (await operator("POST", "/stores", { company_id: company.id, name: "Shop", platform: "custom" })).json()
      const issued = await operator("POST", `/stores/${store.id}/api-keys`, { mode: "test", scopes: ["store:read"] })
      expect(issued.status).toBe(201)
      const { key } = await issued.json()
      const res = await server.fetch("/api/v3/stores/me?x=1", { headers: { authorization: `Bearer ${key}` } })
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.data).toMatchObject({ object: "store", id: store.id })
      expect(res.headers.get("x-request-id")).toBe(body.meta.request_id)
      expect(body.links.self).toBe("http://localhost:8080/api/v3/stores/me?x=1")
      await expectProblem(await server.fetch("/api/v3/stores/me"), 401, "missing_api_key")
    })

    it("answers a schema fault with a 422 problem document", async () => {
      const body = await expectProblem(await operator("POST", "/stores", {}), 422, "validation_failed")
      expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: "/company_id", code: "required" })]))
    })

    it("parses the body signcraft received, not one the framework rewrote", async () => {
      await expectProblem(await operator("POST", "/companies", "{not json"), 400, "malformed_request")
      const name = "Zürich Neon ✨"
      const bytes = new TextEncoder().encode(JSON.stringify({ name }))
      // Cut inside the two-byte "ü" and the three-byte "✨": only a byte-exact stream decodes.
      const res = await server.fetch(
        "/operator/v1/companies",
        streamed(streamOf(bytes, [11, 24]), {
          method: "POST",
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" }
        })
      )
      expect(res.status).toBe(201)
      expect((await res.json()).name).toBe(name)
    })

    it("enforces signcraft's body limit on a streamed body of no declared length", async () => {
      const big = new TextEncoder().encode(JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES * 2) }))
      const res = await server.fetch(
        "/operator/v1/companies",
        streamed(streamOf(big, [1000, 50_000]), {
          method: "POST",
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" }
        })
      )
      await expectProblem(res, 413, "payload_too_large")
    })
  })

  describe(`${host.name}: signcraft mounted under /signs, beside the host's own routes`, () => {
    let app: Awaited<ReturnType<typeof startSigncraft>>
    let server: Host
    const base = "http://localhost:8080/signs"
    const operator = async (path: string, body: object) =>
      (await server.fetch(`/signs/operator/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })).json()

    beforeAll(async () => {
      app = await startSigncraft({ baseUrl: base })
      server = await host.startUnder(app.handler, "/signs")
      expect((await server.fetch("/signs/healthz")).status).toBe(200)
    })
    afterAll(async () => {
      await server.close()
      await app.dispose()
    })

    it("serves signcraft under the prefix, writing the prefix into its links", async () => {
      const company = await operator("/companies", { name: "Acme" })
      const store = await operator("/stores", { company_id: company.id, name: "Shop", platform: "custom" })
      const { key } = await operator(`/stores/${store.id}/api-keys`, { mode: "test", scopes: ["store:read"] })
      const res = await server.fetch("/signs/api/v3/stores/me", { headers: { authorization: `Bearer ${key}` } })
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.data).toMatchObject({ object: "store", id: store.id })
      expect(body.links.self).toBe(`${base}/api/v3/stores/me`)
      const openapi = await (await server.fetch("/signs/api/v3/openapi.json")).json()
      expect(openapi.servers).toEqual([{ url: base }])
    })

    it("leaves the host's routes outside the prefix to the host", async () => {
      const own = await server.fetch("/host-route")
      expect(await own.text()).toBe("the host's own route")
      const shadowed = await server.fetch("/api/v3/stores/me")
      expect(shadowed.status).toBe(200)
      expect(await shadowed.json()).toEqual({ host: true })
      // signcraft stamps every answer of its own with a request id.
      expect(shadowed.headers.get("x-request-id")).toBeNull()
      expect(own.headers.get("x-request-id")).toBeNull()
    })
  })
}
