import { createHash } from "node:crypto"
import { HttpServerResponse } from "effect/http"

// The sha256 source of each inline script of a page (CSP Level 3 hash sources).
const scriptHashes = (page: string): ReadonlyArray<string> =>
  [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash("sha256").update(match[1] ?? "").digest("base64")}'`
  )

/**
 * The Content-Security-Policy of a documentation page (CSP Level 3): its own inline scripts by
 * hash and nothing from another host. Scalar runs inline, styles itself inline, draws icons from
 * data: and blob: URLs and sends the try-it requests to this origin; the page may not be framed
 * (clickjacking of the try-it console, which holds API keys).
 */
export const docsPagePolicy = (page: string): string =>
  [
    "default-src 'none'",
    `script-src ${["'self'", ...scriptHashes(page)].join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")

const policies = new WeakMap<object, string>()

/**
 * A documentation page's answer with its CSP and framing headers. The policy of a page body is
 * worked out once: Scalar answers every request with the same body.
 */
export const securePage = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (body._tag !== "Uint8Array") return response
  let policy = policies.get(body)
  if (policy === undefined) {
    policy = docsPagePolicy(body.text ?? new TextDecoder().decode(body.body))
    policies.set(body, policy)
  }
  return HttpServerResponse.setHeaders(response, {
    "content-security-policy": policy,
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer"
  })
}
