import { basePathOf } from "../domain/deployment/base-path.js"

/**
 * Maps the URL a request arrived with (path and query, as the host hands it over) to the URL the
 * route tables know, or undefined when the request is outside the base path.
 */
export type RouteUrlOf = (url: string) => string | undefined

/** For a listener that serves its origin's root (a separate agent origin): every URL as it is. */
export const atOriginRoot: RouteUrlOf = (url) => url

// RFC 8414 §3.1 and RFC 9728 §3.1 insert the well-known segment between the origin and the path,
// so a service under a path has its metadata outside that path too.
const METADATA_DOCUMENTS = ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource"] as const

// `pathname` stripped of `prefix` when it is that prefix or lies below it.
const below = (pathname: string, prefix: string): string | undefined =>
  pathname === prefix ? "" : pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : undefined

/**
 * The one rule of where signcraft is served: under the base URL's path, which the route tables
 * never carry, and its metadata documents at their RFC 8414 / RFC 9728 locations for that path.
 * Everything else is outside.
 */
export const makeRouteUrlOf = (baseUrl: string): RouteUrlOf => {
  const base = basePathOf(baseUrl)
  if (base === "") return atOriginRoot
  return (url) => {
    const queryAt = url.indexOf("?")
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt)
    const query = queryAt === -1 ? "" : url.slice(queryAt)
    for (const document of METADATA_DOCUMENTS) {
      const rest = below(pathname, `${document}${base}`)
      if (rest !== undefined) return `${document}${rest}${query}`
    }
    const inside = below(pathname, base)
    return inside === undefined ? undefined : `${inside === "" ? "/" : inside}${query}`
  }
}
