import { toNodeListener, type WebHandler } from "@signcraft/adapters"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { AppOptions, DatabaseConfig, ServiceSettings } from "@signcraft/core"
import { type HarnessOptions, startApp } from "./app.js"

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/**
 * The real signcraft handler (test settings) served over HTTP on 127.0.0.1, its `BASE_URL`
 * being that address (so its links lead back to it), plus the app's helpers.
 */
export const startLoopbackServer = async (
  database: DatabaseConfig,
  overrides: Partial<ServiceSettings> = {},
  appOptions: Omit<AppOptions, "settings"> = {},
  harness: HarnessOptions = {}
) => {
  let handler: WebHandler = async () => new Response(null, { status: 503 })
  const server = createServer(toNodeListener((request, context) => handler(request, context)))
  const url = await listen(server)
  const app = startApp(database, { rateLimitPerIpPerMinute: 100_000, baseUrl: url, ...overrides }, appOptions, harness)
  handler = app.handler
  return {
    ...app,
    url,
    dispose: async () => {
      await close(server)
      await app.dispose()
    }
  }
}

/** One request as the proxy saw it. */
export interface ProxiedRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** What the proxy does with the n-th request (0-based): pass it on, answer itself, or pass it on and lose the answer. */
export type ProxyAction =
  | { readonly _tag: "Forward" }
  | { readonly _tag: "ForwardAndDrop" }
  | { readonly _tag: "Answer"; readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown }
  | { readonly _tag: "Hangup" }

/** A loopback proxy in front of `target` that misbehaves as `plan` says and records every request. */
export const startProxy = async (target: string, plan: (request: ProxiedRequest, index: number) => ProxyAction) => {
  const seen: Array<ProxiedRequest> = []
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const request: ProxiedRequest = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") }
    const action = plan(request, seen.length)
    seen.push(request)
    if (action._tag === "Hangup") return void res.socket?.destroy()
    if (action._tag === "Answer") {
      res.writeHead(action.status, { "content-type": "application/problem+json", ...action.headers })
      return void res.end(action.body === undefined ? "" : JSON.stringify(action.body))
    }
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "connection" && name !== "content-length") headers.set(name, value)
    }
    const upstream = await fetch(new URL(request.url, target), {
      method: request.method,
      headers,
      ...(request.body === "" ? {} : { body: request.body }),
      redirect: "manual"
    })
    const text = await upstream.text()
    // The server did the work; the answer never reaches the client.
    if (action._tag === "ForwardAndDrop") return void res.socket?.destroy()
    const outgoing: Record<string, string> = {}
    upstream.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "content-encoding" && name !== "transfer-encoding" && name !== "connection") outgoing[name] = value
    })
    res.writeHead(upstream.status, outgoing)
    res.end(text)
  }
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(599)
      res.end(String(error))
    })
  })
  const url = await listen(server)
  return { url, seen: seen as ReadonlyArray<ProxiedRequest>, close: () => close(server) }
}
