import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ReadableStream as NodeReadableStream } from "node:stream/web"

// Only used to make the URL absolute: the core strips it, and BASE_URL decides public links.
const PLACEHOLDER_ORIGIN = "http://localhost"

/** Thrown when an earlier middleware (a body parser) has already read the body signcraft needs byte for byte. */
export class BodyAlreadyConsumed extends Error {
  constructor() {
    super("signcraft: the request body was already read by an earlier middleware; mount signcraft before body parsers")
    this.name = "BodyAlreadyConsumed"
  }
}

// HTTP/1.1 signals a body with Content-Length or Transfer-Encoding (RFC 9112 §6.3).
const declaresBody = (req: IncomingMessage): boolean =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? "0") > 0

/**
 * A web `Request` over a Node request: every header line as sent (repeated headers kept),
 * the method, `url` (the full original path and query) and the body streamed untouched.
 */
export const toWebRequest = (req: IncomingMessage, url: string, signal: AbortSignal): Request => {
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? ""
    // HTTP/2 pseudo-headers (:path, :method) are not headers of the request.
    if (name === "" || name.startsWith(":")) continue
    headers.append(name, raw[i + 1] ?? "")
  }
  const method = req.method ?? "GET"
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal }
  if (method !== "GET" && method !== "HEAD" && declaresBody(req)) {
    if (req.readableEnded) throw new BodyAlreadyConsumed()
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
    init.duplex = "half"
  }
  return new Request(url.startsWith("/") ? PLACEHOLDER_ORIGIN + url : url, init)
}

/** An `AbortSignal` that fires when the client goes away before the response is complete. */
export const abortOnClientClose = (res: ServerResponse): AbortController => {
  const controller = new AbortController()
  res.once("close", () => {
    if (!res.writableFinished) controller.abort()
  })
  return controller
}

/** Writes a web `Response` to a Node response: status, every header (each Set-Cookie apart) and the body, streamed. */
export const writeWebResponse = async (response: Response, res: ServerResponse): Promise<void> => {
  res.statusCode = response.status
  if (response.statusText !== "") res.statusMessage = response.statusText
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader("set-cookie", cookies)
  if (response.body === null) {
    res.end()
    return
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res)
}
