import { Context } from "effect"
import { ClientAddress } from "@signcraft/core"
import type { WebHandler } from "../../src/index.js"

/** What the echo handler saw of the last request that hung until the client went away. */
export interface AbortProbe {
  readonly started: Promise<void>
  readonly aborted: Promise<void>
}

/**
 * A stand-in for signcraft that reports exactly what reached it: the method, the full URL
 * path, a repeated header, the client's address, and the body bytes as the response body.
 * It answers 207 with two Set-Cookie headers, so status and cookies must survive the way back.
 * `/hang` never answers on its own: it resolves once the request's signal fires.
 */
export const makeEcho = () => {
  let resolveStarted = () => {}
  let resolveAborted = () => {}
  const probe: AbortProbe = {
    started: new Promise<void>((resolve) => { resolveStarted = resolve }),
    aborted: new Promise<void>((resolve) => { resolveAborted = resolve })
  }
  const handler: WebHandler = async (request, context) => {
    const url = new URL(request.url)
    if (url.pathname === "/hang") {
      resolveStarted()
      return new Promise<Response>((resolve) => {
        request.signal.addEventListener("abort", () => {
          resolveAborted()
          resolve(new Response(null, { status: 499 }))
        })
      })
    }
    const body = await request.arrayBuffer()
    const headers = new Headers({
      "content-type": "application/octet-stream",
      "x-echo-method": request.method,
      "x-echo-url": url.pathname + url.search,
      "x-echo-multi": request.headers.get("x-multi") ?? "",
      "x-echo-client": (context === undefined ? undefined : Context.getUnsafe(context, ClientAddress)) ?? ""
    })
    headers.append("set-cookie", "first=1; Path=/; HttpOnly")
    headers.append("set-cookie", "second=2; Path=/")
    return new Response(request.method === "HEAD" ? null : body, { status: 207, headers })
  }
  return { handler, probe }
}
