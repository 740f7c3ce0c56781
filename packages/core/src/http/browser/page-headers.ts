import { HttpServerResponse } from "effect/http"

/**
 * The headers of a signed-in or sign-in page: never cached (it shows a person's data or a form
 * token), never framed (clickjacking), no referrer, and its Content-Security-Policy.
 */
export const withPageHeaders = (policy: string) =>
  HttpServerResponse.setHeaders({
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "content-security-policy": policy,
    "referrer-policy": "no-referrer"
  })
