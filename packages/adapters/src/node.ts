import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"

/** A web-standard request handler, as `makeWebHandler` returns. */
export type WebHandler = (request: Request) => Promise<Response>

const toRequest = (req: IncomingMessage, origin: string): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const method = req.method ?? "GET"
  const hasBody = method !== "GET" && method !== "HEAD"
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {})
  } as RequestInit)
}

/**
 * A `(req, res)` listener for `node:http`, Express (`app.use(listener)`) or any host that
 * speaks Node's request and response objects. `origin` is the public origin of the API.
 */
export const toNodeListener = (handler: WebHandler, origin: string) =>
async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
  try {
    const response = await handler(toRequest(req, origin))
    res.statusCode = response.status
    response.headers.forEach((value, name) => {
      res.setHeader(name, value)
    })
    if (response.body === null) {
      res.end()
      return
    }
    const reader = response.body.getReader()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value)
    res.end()
  } catch (error) {
    // The core answers every request itself; reaching here means the host broke the stream.
    res.statusCode = 500
    res.end()
    throw error
  }
}
