import { Context } from "effect"
import { randomBase62Pooled } from "../domain/api-key.js"

/** Which wire conventions a request's path selects. */
export type Generation = "v3" | "legacy" | "operator" | "storefront" | "system"

/** Facts about the request being served, provided to every handler by the router middleware. */
export interface RequestInfo {
  readonly requestId: string
  readonly generation: Generation
  /** The public URL of this request (`links.self`), on the configured base URL. */
  readonly selfUrl: string
  readonly clientIp: string
}

/** A fresh request id, `req_` and 24 base62 characters. */
export const newRequestId = (): string => `req_${randomBase62Pooled(24)}`

/**
 * The request being served. The router middleware provides it for every request; it is
 * a reference (with a stand-in default) so handlers can read it without declaring it.
 */
export const CurrentRequest = Context.Reference<RequestInfo>("signcraft/CurrentRequest", {
  defaultValue: () => ({ requestId: newRequestId(), generation: "system", selfUrl: "", clientIp: "unknown" })
})

const LEGACY_PREFIXES = ["/api/v2/", "/api/orders", "/api/customisers/"]

/** Tells the generation of a request from its path. */
export const generationOf = (pathname: string): Generation => {
  if (pathname.startsWith("/api/v3/") || pathname === "/api/v3") return "v3"
  if (LEGACY_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return "legacy"
  if (pathname.startsWith("/operator/")) return "operator"
  if (pathname.startsWith("/storefront/")) return "storefront"
  return "system"
}
