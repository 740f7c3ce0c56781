import type { UrlPolicyEnvironment } from "../outbound/delivery-url.js"
import { type ClientRegistration, checkRegistration } from "./registration.js"

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, adopted by MCP
 * authorization 2025-11-25): a client whose `client_id` is an `https` URL publishes its metadata
 * there, and the authorization server fetches it instead of holding a registration. This module
 * is pure: which `client_id` names a document, whether a fetched document can be used, and how
 * long it may be cached.
 */

/** Longest document URL accepted as a `client_id`. */
export const MAX_DOCUMENT_URL_LENGTH = 2000

/** Longest a fetched document is cached, whatever its headers say: 24 hours. */
export const MAX_DOCUMENT_CACHE_SECONDS = 24 * 60 * 60

/** What a `client_id` names: a registration made here, or a metadata document at a URL. */
export type ClientIdKind =
  | { readonly _tag: "Registered" }
  | { readonly _tag: "Document"; readonly url: URL }
  | { readonly _tag: "Refused"; readonly description: string }

const LOOPBACK_DOCUMENT_HOSTS = ["127.0.0.1", "localhost"]

// Outside production a test's loopback server may publish documents over plain http.
const isLoopbackDocument = (clientId: string, environment: UrlPolicyEnvironment): boolean =>
  environment !== "production" &&
  LOOPBACK_DOCUMENT_HOSTS.some((host) => clientId.startsWith(`http://${host}:`) || clientId.startsWith(`http://${host}/`))

/**
 * Sorts a `client_id`: an `https` URL (or, outside production, an `http` URL on 127.0.0.1 or
 * localhost) names a metadata document, which must have a path, no fragment, no credentials
 * and no dot segments (draft-ietf-oauth-client-id-metadata-document §3); anything else is a registration's id.
 */
export const classifyClientId = (clientId: string, environment: UrlPolicyEnvironment): ClientIdKind => {
  if (!clientId.startsWith("https://") && !isLoopbackDocument(clientId, environment)) return { _tag: "Registered" }
  const refuse = (description: string): ClientIdKind => ({ _tag: "Refused", description })
  if (clientId.length > MAX_DOCUMENT_URL_LENGTH) return refuse(`A client_id URL has at most ${MAX_DOCUMENT_URL_LENGTH} characters.`)
  if (!URL.canParse(clientId)) return refuse("The client_id is not a valid URL.")
  const url = new URL(clientId)
  if (clientId.includes("#")) return refuse("A client_id URL must not contain a fragment.")
  if (url.username !== "" || url.password !== "" || clientId.slice(0, clientId.indexOf("/", 8)).includes("@")) {
    return refuse("A client_id URL must not carry credentials.")
  }
  if (url.pathname === "/" || url.pathname === "") return refuse("A client_id URL must have a path naming the metadata document.")
  if (clientId.split(/[?#]/)[0]?.split("/").slice(3).some((segment) => segment === "." || segment === "..")) {
    return refuse("A client_id URL must not contain dot segments.")
  }
  return { _tag: "Document", url }
}

/** The verdict on a fetched metadata document. */
export type MetadataDocumentVerdict =
  | { readonly _tag: "Valid"; readonly registration: ClientRegistration & { readonly client_name: string } }
  | { readonly _tag: "Invalid"; readonly description: string }

/**
 * Checks a fetched document (its JSON, parsed) against the URL it was fetched from: `client_id`
 * must equal that URL exactly and `client_name` must be given; the rest follows the rules of a
 * dynamic registration (public client, redirect URIs, grants, response type, scope), so the two
 * ways of becoming a client can never drift apart.
 */
export const checkMetadataDocument = (documentUrl: string, document: unknown): MetadataDocumentVerdict => {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    return { _tag: "Invalid", description: "The document is not a JSON object." }
  }
  const meta = document as Record<string, unknown>
  if (meta.client_id !== documentUrl) {
    return { _tag: "Invalid", description: "The document's client_id is not the URL it was fetched from." }
  }
  if (meta.client_name === undefined) return { _tag: "Invalid", description: "The document has no client_name." }
  const verdict = checkRegistration(meta)
  if (verdict._tag === "Invalid") return { _tag: "Invalid", description: verdict.error.error_description }
  const { registration } = verdict
  if (registration.client_name === null) return { _tag: "Invalid", description: "The document has no client_name." }
  return { _tag: "Valid", registration: { ...registration, client_name: registration.client_name } }
}

/** The caching headers of a fetched document. */
export interface CachingHeaders {
  readonly cacheControl: string | undefined
  readonly expires: string | undefined
  readonly date: string | undefined
  readonly age: string | undefined
}

const directive = (cacheControl: string, name: string): string | true | undefined => {
  for (const part of cacheControl.split(",")) {
    const [key, ...value] = part.trim().split("=")
    if (key?.toLowerCase() === name) return value.length === 0 ? true : value.join("=").replace(/^"|"$/g, "")
  }
  return undefined
}

// RFC 9110 §5.6.7 IMF-fixdate only: anything else in Expires means already expired (RFC 9111 §5.3).
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/
const httpDate = (value: string | undefined): number =>
  value !== undefined && HTTP_DATE.test(value.trim()) ? Date.parse(value) : Number.NaN

const seconds = (value: string | true | undefined): number | undefined =>
  typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined

/**
 * How many seconds a fetched document may be used without fetching it again (RFC 9111 §4.2.1:
 * `no-store` and `no-cache` allow none, then `max-age` less `Age`, then `Expires` less `Date`),
 * never more than {@link MAX_DOCUMENT_CACHE_SECONDS}. Without any of them the document is not
 * reused: freshness is never guessed.
 */
export const documentFreshness = (headers: CachingHeaders): number => {
  const clamp = (value: number) => Math.max(0, Math.min(MAX_DOCUMENT_CACHE_SECONDS, Math.floor(value)))
  const cacheControl = headers.cacheControl ?? ""
  if (directive(cacheControl, "no-store") !== undefined || directive(cacheControl, "no-cache") !== undefined) return 0
  const maxAge = seconds(directive(cacheControl, "max-age"))
  const age = seconds(headers.age?.trim()) ?? 0
  if (maxAge !== undefined) return clamp(maxAge - age)
  if (headers.expires !== undefined) {
    const expires = httpDate(headers.expires)
    const date = httpDate(headers.date)
    if (Number.isNaN(expires) || Number.isNaN(date)) return 0
    return clamp((expires - date) / 1000 - age)
  }
  return 0
}
