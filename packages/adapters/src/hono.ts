import { serveWeb, type WebHandler } from "./web-handler.js"

/** The parts of a Hono context the adapter reads (structural: no dependency on hono). */
export interface HonoContextLike {
  readonly req: { readonly raw: Request }
  readonly env?: unknown
}

/** Options of {@link signcraftHono}. */
export interface HonoAdapterOptions {
  /** The client's address for per-IP quotas; defaults to the socket's peer under `@hono/node-server`. */
  readonly clientAddress?: (c: HonoContextLike) => string | undefined
}

// @hono/node-server puts the Node request in the bindings as `incoming`.
const nodeServerAddress = (c: HonoContextLike): string | undefined => {
  const env = c.env as { readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } } } | undefined
  return env?.incoming?.socket?.remoteAddress
}

/**
 * A Hono handler passing the original web request (its full URL) to signcraft: route the base URL's
 * path to it, `app.all("/signs/*", signcraftHono(handler))` for `BASE_URL` `https://shop.example/signs`
 * (`app.all("/*", …)` when the base URL has no path).
 */
export const signcraftHono = (handler: WebHandler, options: HonoAdapterOptions = {}) => {
  const clientAddress = options.clientAddress ?? nodeServerAddress
  return (c: HonoContextLike): Promise<Response> => serveWeb(handler, c.req.raw, clientAddress(c))
}
