import { toNextRouteHandlers, type WebHandler } from "../src/index.js"
import { describeHost } from "./support/host-suite.js"

// Next.js calls a route module's exported functions with the request: so does this host. Under a
// prefix, the module is `app/signs/[...signcraft]/route.ts` and the app's other route modules
// (here `app/host-route/route.ts` and `app/api/v3/stores/me/route.ts`) answer their own paths.
const startNext = async (handler: WebHandler, prefix = "") => {
  const routes = toNextRouteHandlers(handler, {
    // The hop the app's own proxy appended is the last one; earlier ones are the client's word.
    clientAddress: (request) => request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim()
  })
  const hostRoutes: Record<string, () => Response> = {
    "/host-route": () => new Response("the host's own route"),
    "/api/v3/stores/me": () => Response.json({ host: true })
  }
  const fetchRoute = async (path: string, init?: RequestInit) => {
    const request = new Request(`http://localhost:3000${path}`, init)
    const pathname = new URL(request.url).pathname
    const own = prefix === "" ? undefined : hostRoutes[pathname]
    if (own !== undefined) return own()
    if (!pathname.startsWith(`${prefix}/`)) return new Response("This page could not be found.", { status: 404 })
    const route = routes[request.method as keyof typeof routes]
    return route(request)
  }
  return { fetch: fetchRoute, close: async () => {} }
}

describeHost({
  name: "Next.js route handlers",
  start: (handler) => startNext(handler),
  startUnder: startNext,
  client: { headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.9" }, expected: "203.0.113.9" },
  listens: false
})
