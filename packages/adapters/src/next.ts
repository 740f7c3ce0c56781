import { serveWeb, type WebHandler } from "./web-handler.js"

/** A Next.js App Router route handler (a `NextRequest` is a web `Request`). */
export type NextRouteHandler = (request: Request) => Promise<Response>

/** The route module exports of `app/[...signcraft]/route.ts`. */
export interface NextRouteHandlers {
  readonly GET: NextRouteHandler
  readonly HEAD: NextRouteHandler
  readonly POST: NextRouteHandler
  readonly PUT: NextRouteHandler
  readonly PATCH: NextRouteHandler
  readonly DELETE: NextRouteHandler
  readonly OPTIONS: NextRouteHandler
}

/** Options of {@link toNextRouteHandlers}. */
export interface NextAdapterOptions {
  /**
   * The client's address for per-IP quotas. Route handlers see no socket, so there is no
   * default: read the header your proxy sets (e.g. the first `x-forwarded-for` hop) if you trust it.
   */
  readonly clientAddress?: (request: Request) => string | undefined
}

/** Route handlers for every method: `export const { GET, POST, … } = toNextRouteHandlers(handler)`. */
export const toNextRouteHandlers = (handler: WebHandler, options: NextAdapterOptions = {}): NextRouteHandlers => {
  const route: NextRouteHandler = (request) => serveWeb(handler, request, options.clientAddress?.(request))
  return { GET: route, HEAD: route, POST: route, PUT: route, PATCH: route, DELETE: route, OPTIONS: route }
}
