import { HttpServerResponse } from "effect/http"
import { basePathOf } from "../../domain/deployment/base-path.js"
import { isLoopbackHost } from "../../domain/oauth/redirect-uri.js"

/** The names and attributes of the browser pages' cookies (consent screen, dashboard) for one deployment. */
export interface CookiePolicy {
  readonly secure: boolean
  readonly session: string
  readonly csrf: string
  /** The device cookie set after a successful sign-in (`domain/oauth/device-cookie.ts`). */
  readonly device: string
  /** The base URL's path (`/` at an origin's root): the cookies never reach the host's other paths. */
  readonly path: string
}

/**
 * Cookies are `Secure` unless the base URL is plain http on a loopback host (a local
 * development server), and scoped to the base URL's path. Secure ones at an origin's root take
 * the `__Host-` prefix, which pins them to this origin and path `/`; under a path, where that
 * prefix cannot be used, `__Secure-`.
 */
export const cookiePolicy = (baseUrl: string): CookiePolicy => {
  const url = new URL(baseUrl)
  const secure = !(url.protocol === "http:" && isLoopbackHost(url.hostname))
  const basePath = basePathOf(baseUrl)
  const prefix = !secure ? "" : basePath === "" ? "__Host-" : "__Secure-"
  return {
    secure,
    session: `${prefix}sc_session`,
    csrf: `${prefix}sc_csrf`,
    device: `${prefix}sc_device`,
    path: basePath === "" ? "/" : basePath
  }
}

/** Sets an HttpOnly, SameSite=Lax cookie on the policy's path. */
export const withCookie = (policy: CookiePolicy, name: string, value: string, maxAgeSeconds: number) =>
  HttpServerResponse.setCookieUnsafe(name, value, {
    httpOnly: true,
    sameSite: "lax",
    secure: policy.secure,
    path: policy.path,
    maxAge: `${maxAgeSeconds} seconds`
  })

/** Removes a cookie set by {@link withCookie} (same name, path and attributes, expired). */
export const withoutCookie = (policy: CookiePolicy, name: string) =>
  HttpServerResponse.setCookieUnsafe(name, "", {
    httpOnly: true,
    sameSite: "lax",
    secure: policy.secure,
    path: policy.path,
    maxAge: "0 seconds"
  })
