import * as FindMyWay from "effect/http/FindMyWay"
import { HttpApi, type HttpApiGroup } from "effect/http-api"

/** One route the app serves: a method (or `*` for every method) and a path pattern. */
export interface RouteEntry {
  readonly method: string
  readonly path: `/${string}`
}

const isRoutePath = (path: string): path is `/${string}` => path.startsWith("/")

/** Every endpoint of an HttpApi definition as a route entry (group prefixes included). */
export const apiRouteTable = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<RouteEntry> => {
  const routes: Array<RouteEntry> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const path = endpoint.path
      if (isRoutePath(path)) routes.push({ method: endpoint.method, path })
    }
  })
  return routes
}

/**
 * Answers "which methods does this URL have?" from the app's route table, so a request
 * whose path exists with another method gets 405 and an `Allow` header (RFC 9110 §15.5.6)
 * instead of 404. Paths match exactly as the router matches them.
 */
export const makeAllowedMethods = (routes: ReadonlyArray<RouteEntry>) => {
  // The router's own defaults, so a path matches here exactly when it matches there.
  const router = FindMyWay.make<true>()
  const methods = new Set<string>()
  for (const route of routes) {
    if (route.method === "*") router.all(route.path, true)
    else {
      router.on(route.method, route.path, true)
      methods.add(route.method)
    }
  }
  const known = [...methods].sort()
  return (url: string): ReadonlyArray<string> => {
    const allowed = known.filter((method) => router.find(method, url) !== undefined)
    // The router answers HEAD with the GET route.
    return allowed.includes("GET") && !allowed.includes("HEAD") ? [...allowed, "HEAD"].sort() : allowed
  }
}

/** The label of a request that matched no route: metrics never carry a path a client made up. */
export const UNMATCHED_ROUTE = "unmatched"

/**
 * Answers "which route template serves this request?" (`/api/v3/customisers/:customiser_id`,
 * never a concrete id), from the app's route table, for metric labels, span names and log lines.
 * HEAD is served by the GET route, a preflight by whichever route owns the path.
 */
export const makeRouteTemplateOf = (routes: ReadonlyArray<RouteEntry>) => {
  const router = FindMyWay.make<string>()
  const preflights = FindMyWay.make<string>()
  for (const route of routes) {
    if (route.method === "*") router.all(route.path, route.path)
    else router.on(route.method, route.path, route.path)
    // The first route of a path names its preflight; every route of one path has one template.
    if (preflights.find("OPTIONS", route.path) === undefined) preflights.on("OPTIONS", route.path, route.path)
  }
  return (method: string, url: string): string | undefined =>
    router.find(method, url)?.handler ??
      (method === "HEAD" ? router.find("GET", url)?.handler : method === "OPTIONS" ? preflights.find("OPTIONS", url)?.handler : undefined)
}
