import { createServer, type Server } from "node:http"

// How often idle keep-alive connections are looked for while the server closes.
const SWEEP_INTERVAL_MS = 50

/**
 * A `node:http` server that drains quickly when closed. Node's `close()` stops accepting
 * and ends the connections idle at that moment, but a connection whose request was in
 * flight stays open after its response until the keep-alive timeout (5 s). Here, once
 * closing, every response says `Connection: close`, and connections are ended as they
 * fall idle, so shutdown takes as long as the slowest in-flight request and no longer.
 */
export const createDrainingServer = (): Server => {
  const server = createServer()
  let closing = false
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
