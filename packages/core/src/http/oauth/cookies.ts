import { HttpServerResponse } from "effect/http"
import { isLoopbackHost } from "../../domain/oauth/redirect-uri.js"

/** The names and attributes of the consent screen's cookies for one deployment. */
export interface CookiePolicy {
  readonly secure: boolean
  readonly session: string
  readonly csrf: string
  /** The device cookie set after a successful sign-in (`domain/oauth/device-cookie.ts`). */
  readonly device: string
}

/**
 * Cookies are `Secure` unless the base URL is plain http on a loopback host (a local
 * development server); secure ones take the `__Host-` prefix, which pins them to this
 * origin and path `/`.
 */
export const cookiePolicy = (baseUrl: string): CookiePolicy => {
  const url = new URL(baseUrl)
  const secure = !(url.protocol === "http:" && isLoopbackHost(url.hostname))
  const prefix = secure ? "__Host-" : ""
  return { secure, session: `${prefix}sc_session`, csrf: `${prefix}sc_csrf`, device: `${prefix}sc_device` }
}

/** Sets an HttpOnly, SameSite=Lax cookie on path `/`. */
export const withCookie = (policy: CookiePolicy, name: string, value: string, maxAgeSeconds: number) =>
  HttpServerResponse.setCookieUnsafe(name, value, {
    httpOnly: true,
    sameSite: "lax",
    secure: policy.secure,
    path: "/",
    maxAge: `${maxAgeSeconds} seconds`
  })
