import type { IncomingMessage, ServerResponse } from "node:http"
import { abortOnClientClose, toWebRequest, writeWebResponse } from "./node-request.js"
import { serveWeb, type WebHandler } from "./web-handler.js"

/** A Node request as Express extends it: `originalUrl` survives `app.use(prefix, …)`, `ip` honours `trust proxy`. */
export type NodeRequest = IncomingMessage & { readonly originalUrl?: string; readonly ip?: string }

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** The client's address for per-IP quotas; defaults to Express's `req.ip`, else the socket's peer. */
  readonly clientAddress?: (req: NodeRequest) => string | undefined
}

const defaultClientAddress = (req: NodeRequest) => req.ip ?? req.socket.remoteAddress

/**
 * A `(req, res, next?)` listener for `node:http` and Express. signcraft always sees the full
 * original URL and serves what lies under its base URL's path: with `BASE_URL`
 * `https://shop.example/signs`, mount it as `app.use("/signs", toNodeListener(handler))` and the
 * host's other routes stay the host's; with a `BASE_URL` at the origin's root, mount it without a path.
 */
export const toNodeListener = (handler: WebHandler, options: NodeListenerOptions = {}) => {
  const clientAddress = options.clientAddress ?? defaultClientAddress
  return async (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> => {
    const client = abortOnClientClose(res)
    try {
      const request = toWebRequest(req, req.originalUrl ?? req.url ?? "/", client.signal)
      const response = await serveWeb(handler, request, clientAddress(req))
      // The client is gone: the core saw the abort and stopped; there is no one to answer.
      if (client.signal.aborted) return
      await writeWebResponse(response, res)
    } catch (error) {
      // A stream cut short by the client's own disconnect is not a failure of ours.
      if (client.signal.aborted) return
      if (next !== undefined) return next(error)
      if (!res.headersSent) res.statusCode = 500
      res.end()
      throw error
    }
  }
}
