import type { IncomingMessage, ServerResponse } from "node:http"
import { abortOnClientClose, toWebRequest } from "./node-request.js"
import { serveWeb, type WebHandler } from "./web-handler.js"

/** The parts of a Fastify request the adapter reads (structural: no dependency on fastify). */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage
  readonly originalUrl?: string
  readonly ip?: string
}

/** The parts of a Fastify reply the adapter reads. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse
}

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void
  addContentTypeParser(
    contentType: string,
    parser: (request: never, payload: never, done: (error: Error | null, body?: undefined) => void) => void
  ): void
  all(path: string, handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<Response>): void
}

/** Options of {@link signcraftFastify}. */
export interface FastifyAdapterOptions {
  /** The client's address for per-IP quotas; defaults to `request.ip` (which honours `trustProxy`). */
  readonly clientAddress?: (request: FastifyRequestLike) => string | undefined
}

/**
 * A Fastify plugin serving every path of its scope with signcraft. Register it with the base URL's
 * path as its prefix (`fastify.register(signcraftFastify(handler), { prefix: "/signs" })` for
 * `BASE_URL` `https://shop.example/signs`), or without one when the base URL has no path: signcraft
 * sees the full original URL. Body parsing is switched off in the plugin's scope only, so the raw
 * bytes reach signcraft and the host's own routes keep their parsers.
 */
export const signcraftFastify = (handler: WebHandler, options: FastifyAdapterOptions = {}) => {
  const clientAddress = options.clientAddress ?? ((request: FastifyRequestLike) => request.ip)
  return async (fastify: FastifyInstanceLike): Promise<void> => {
    // Leaving the payload unread keeps it for signcraft (raw bytes for signatures and fingerprints).
    fastify.removeAllContentTypeParsers()
    fastify.addContentTypeParser("*", (_request, _payload, done) => done(null))
    // async: a request that cannot be converted becomes a rejection Fastify answers with a 500.
    fastify.all("/*", async (request, reply) => {
      const client = abortOnClientClose(reply.raw)
      const url = request.originalUrl ?? request.raw.url ?? "/"
      // Fastify writes a returned web Response itself (status, headers, Set-Cookie, streamed body).
      return serveWeb(handler, toWebRequest(request.raw, url, client.signal), clientAddress(request))
    })
  }
}
