import { createHash } from "node:crypto"
import type { FieldError } from "../domain/field-error.js"

/** Default and largest page size (operating contract §4). */
export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

/** A validated page request: how many items, after which position. */
export interface PageRequest {
  readonly limit: number
  /** The sort key of the last item already seen; absent on the first page. */
  readonly after: string | undefined
}

// The filter set a cursor was made under, hashed so the cursor stays small and opaque.
const filterDigest = (filters: Readonly<Record<string, string | undefined>>): string =>
  createHash("sha256")
    .update(JSON.stringify(Object.keys(filters).sort().map((key) => [key, filters[key] ?? null])))
    .digest("base64url")
    .slice(0, 16)

/** Makes the opaque cursor that resumes after `after` under the same filters. */
export const encodeCursor = (after: string, filters: Readonly<Record<string, string | undefined>>): string =>
  Buffer.from(JSON.stringify({ a: after, f: filterDigest(filters) })).toString("base64url")

const limitFault = (detail: string): FieldError => ({ parameter: "limit", code: "out_of_range", detail })
const cursorFault = (detail: string): FieldError => ({ parameter: "cursor", code: "invalid_cursor", detail })

/**
 * Reads `limit` and `cursor` from a query. A cursor made under other filters, or not made
 * by us at all, is refused rather than silently giving a wrong page.
 */
export const parsePageRequest = (
  query: { readonly limit?: string | undefined; readonly cursor?: string | undefined },
  filters: Readonly<Record<string, string | undefined>>
): { readonly ok: true; readonly page: PageRequest } | { readonly ok: false; readonly errors: ReadonlyArray<FieldError> } => {
  const errors: Array<FieldError> = []
  let limit = DEFAULT_PAGE_SIZE
  if (query.limit !== undefined) {
    const parsed = /^\d{1,4}$/.test(query.limit) ? Number(query.limit) : Number.NaN
    if (!(parsed >= 1 && parsed <= MAX_PAGE_SIZE)) {
      errors.push(limitFault(`Must be an integer from 1 to ${MAX_PAGE_SIZE}.`))
    } else limit = parsed
  }
  let after: string | undefined
  if (query.cursor !== undefined) {
    try {
      const decoded: unknown = JSON.parse(Buffer.from(query.cursor, "base64url").toString("utf8"))
      if (typeof decoded !== "object" || decoded === null || !("a" in decoded) || !("f" in decoded) || typeof decoded.a !== "string") {
        errors.push(cursorFault("This cursor was not issued by this API."))
      } else if (decoded.f !== filterDigest(filters)) {
        errors.push(cursorFault("This cursor belongs to another filter set; follow links.next unchanged."))
      } else after = decoded.a
    } catch {
      // Not base64url JSON: a cursor we never issued.
      errors.push(cursorFault("This cursor was not issued by this API."))
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, page: { limit, after } }
}

/** The `links.next` URL: the request's own URL with the cursor replaced, other parameters kept. */
export const nextLink = (selfUrl: string, cursor: string): string => {
  const url = new URL(selfUrl)
  url.searchParams.set("cursor", cursor)
  return url.toString()
}

/**
 * Cuts a page from `limit + 1` fetched items: the extra one only tells whether more exist.
 * `sortKey` gives the position a following page resumes after.
 */
export const cutPage = <A>(
  fetched: ReadonlyArray<A>,
  page: PageRequest,
  sortKey: (item: A) => string,
  filters: Readonly<Record<string, string | undefined>>
): { readonly items: ReadonlyArray<A>; readonly nextCursor: string | undefined } => {
  const items = fetched.slice(0, page.limit)
  const last = items[items.length - 1]
  const hasMore = fetched.length > page.limit && last !== undefined
  return { items, nextCursor: hasMore ? encodeCursor(sortKey(last), filters) : undefined }
}
