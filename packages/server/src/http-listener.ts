import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { FastReadsSlot } from "@signcraft/core/internal"

// How often idle keep-alive connections are looked for while the server closes.
const SWEEP_INTERVAL_MS = 50

/**
 * Holds the requests a server accepts before its app is attached. The listener opens before
 * the routes are built (the app needs the server to serve on), and a request that arrived in
 * between would find no handler and never be answered; held here, it is handed to the app's
 * handler the moment that is attached.
 */
const holdUntilServed = (server: Server): void => {
  const held: Array<readonly [IncomingMessage, ServerResponse]> = []
  const hold = (request: IncomingMessage, response: ServerResponse) => {
    held.push([request, response])
  }
  server.on("request", hold)
  server.on("newListener", function attached(event: string | symbol, handler: (...args: Array<unknown>) => void) {
    if (event !== "request" || handler === hold) return
    server.off("newListener", attached)
    server.off("request", hold)
    // After the handler is added (this event fires before): replay in arrival order.
    queueMicrotask(() => {
      for (const [request, response] of held.splice(0)) handler(request, response)
    })
  })
}

/**
 * Offers every request to the app's fast reads before the app's handler sees it: a request they
 * answer is written here and never reaches the handler. The handler, once attached, is swapped
 * for one that asks the fast reads first. A closing server sends everything the full way.
 */
const answerFastReadsFirst = (server: Server, slot: FastReadsSlot, closing: () => boolean): void => {
  const answeredFast = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (slot.answer === undefined || closing()) return false
    const answer = slot.answer(request.method ?? "", request.url ?? "", request.headers, request.socket.remoteAddress ?? "unknown")
    if (answer === undefined) return false
    response.writeHead(answer.status, answer.headers)
    // A body a client sent with its GET is drained by node:http once the answer is finished.
    response.end(answer.body)
    return true
  }
  server.on("newListener", function attached(event: string | symbol, handler: (...args: Array<unknown>) => void) {
    if (event !== "request") return
    server.off("newListener", attached)
    // After the handler is added (this event fires before).
    queueMicrotask(() => {
      server.off("request", handler)
      server.on("request", (request: IncomingMessage, response: ServerResponse) => {
        if (!answeredFast(request, response)) handler(request, response)
      })
    })
  })
}

/**
 * A `node:http` server that drains quickly when closed, and that answers requests accepted
 * before its app was attached (see {@link holdUntilServed}). Node's `close()` stops accepting
 * and ends the connections idle at that moment, but a connection whose request was in
 * flight stays open after its response until the keep-alive timeout (5 s). Here, once
 * closing, every response says `Connection: close`, and connections are ended as they
 * fall idle, so shutdown takes as long as the slowest in-flight request and no longer.
 */
export const createDrainingServer = (fastReads?: FastReadsSlot): Server => {
  const server = createServer()
  holdUntilServed(server)
  let closing = false
  if (fastReads !== undefined) answerFastReadsFirst(server, fastReads, () => closing)
  const close = server.close.bind(server)
  server.close = (callback?: (error?: Error) => void) => {
    if (!closing) {
      closing = true
      // Added only now, so requests before shutdown pay nothing for it; prepended so the
      // header is set before the app's handler starts any response.
      server.prependListener("request", (_request, response) => {
        response.setHeader("connection", "close")
      })
      const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_INTERVAL_MS)
      server.once("close", () => clearInterval(sweep))
    }
    return close(callback)
  }
  return server
}
