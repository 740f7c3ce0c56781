import { toNextRouteHandlers } from "../src/index.js"
import { describeHost } from "./support/host-suite.js"

// Next.js calls a route module's exported functions with the request: so does this host.
describeHost({
  name: "Next.js route handlers",
  start: async (handler) => {
    const routes = toNextRouteHandlers(handler, {
      // The hop the app's own proxy appended is the last one; earlier ones are the client's word.
      clientAddress: (request) => request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim()
    })
    const fetchRoute = (path: string, init?: RequestInit) => {
      const request = new Request(`http://localhost:3000${path}`, init)
      const route = routes[request.method as keyof typeof routes]
      return route(request)
    }
    return { fetch: fetchRoute, close: async () => {} }
  },
  client: { headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.9" }, expected: "203.0.113.9" },
  listens: false
})
