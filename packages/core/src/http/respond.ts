import { HttpServerResponse } from "effect/http"
import type { FailureDescription } from "../presenters/failure-table.js"
import { withPageHeaders } from "./browser/page-headers.js"
import { dashboardFailurePage } from "./dashboard/failure-page.js"
import { DASHBOARD_POLICY } from "./dashboard/layout.js"
import { jsonRpcErrorBody, oauthErrorBody } from "./protocol-errors.js"
import type { RequestInfo } from "./request-info.js"

/** The URL of the documentation page of a problem code (`type` of a problem document). */
export const problemTypeUrl = (baseUrl: string, code: string): string => `${baseUrl}/docs/problems/${code}`

/** The v3 problem document for a failure. */
export const problemBody = (d: FailureDescription, info: RequestInfo) => ({
  type: problemTypeUrl(info.baseUrl, d.code),
  title: d.title,
  status: d.status,
  code: d.code,
  detail: d.detail,
  request_id: info.requestId,
  ...(d.errors === undefined ? {} : { errors: d.errors }),
  ...(d.retryAfter === undefined ? {} : { retry_after: d.retryAfter }),
  ...(d.requiredScopes === undefined ? {} : { required_scopes: d.requiredScopes }),
  ...(d.grantedScopes === undefined ? {} : { granted_scopes: d.grantedScopes })
})

// The previous generation keyed faults by dotted field name (`products.0.external_id`).
const legacyField = (pointer: string | undefined, parameter: string | undefined): string =>
  parameter ?? (pointer ?? "").split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")).join(".")

/** The previous generation's `{message, errors}` body for a failure. */
export const legacyBody = (d: FailureDescription) => {
  // A Map, not an object: a client's member may be called `constructor` or `__proto__`.
  const errors = new Map<string, Array<string>>()
  for (const e of d.errors ?? []) {
    const field = legacyField(e.pointer, e.parameter) || "request"
    errors.set(field, [...(errors.get(field) ?? []), e.detail])
  }
  return { message: d.detail, errors: Object.fromEntries(errors) }
}

// RFC 6749 §5.2 has no codes for transport failures; these are the nearest.
const oauthErrorCode = (d: FailureDescription): string =>
  d.status >= 500 ? "server_error" : d.code === "rate_limited" ? "rate_limited" : "invalid_request"

/** The authorization server's RFC 6749 body for a failure. */
export const oauthFailureBody = (d: FailureDescription) => oauthErrorBody(oauthErrorCode(d), d.detail, d.retryAfter)

// JSON-RPC 2.0 §5.1: -32700 parse error, -32600 invalid request, -32603 internal error.
const jsonRpcCode = (d: FailureDescription): number =>
  d.status >= 500 ? -32603 : d.code === "malformed_request" ? -32700 : -32600

/** The agent endpoint's JSON-RPC error for a failure met before any message was read. */
export const jsonRpcFailureBody = (d: FailureDescription) =>
  jsonRpcErrorBody(jsonRpcCode(d), d.detail, null, { status: d.status, code: d.code })

// The body of a failure in the request's wire format; only the service's own APIs answer
// with problem documents.
const bodyOf = (d: FailureDescription, info: RequestInfo) => {
  switch (info.generation) {
    case "legacy":
      return { body: legacyBody(d), problem: false }
    case "oauth":
      return { body: oauthFailureBody(d), problem: false }
    case "agent":
      return { body: jsonRpcFailureBody(d), problem: false }
    default:
      return { body: problemBody(d, info), problem: true }
  }
}

/**
 * Renders a failure met outside any endpoint (no route, a body too large to read, a defect) in
 * the wire format of the request's generation. Endpoints' failures are encoded by HttpApi with
 * the same bodies (`failure-codecs.ts`).
 */
export const renderFailure = (d: FailureDescription, info: RequestInfo) => {
  const headers: Record<string, string> = {}
  if (d.retryAfter !== undefined) headers["retry-after"] = String(d.retryAfter)
  if (d.allow !== undefined) headers.allow = d.allow.join(", ")
  // The rest of an oversized body is never read: close the connection, so the client's next
  // request goes on a fresh one instead of meeting a reset socket (docs/input-handling.md).
  if (d.status === 413) headers.connection = "close"
  // The dashboard is read by people in a browser: its failures are pages.
  if (info.generation === "dashboard") {
    return HttpServerResponse.html(dashboardFailurePage(d, info.baseUrl)).pipe(
      HttpServerResponse.setStatus(d.status),
      HttpServerResponse.setHeaders(headers),
      withPageHeaders(DASHBOARD_POLICY)
    )
  }
  const { body, problem } = bodyOf(d, info)
  return HttpServerResponse.jsonUnsafe(body, {
    status: d.status,
    headers,
    ...(problem ? { contentType: "application/problem+json" } : {})
  })
}
