import { createHmac, timingSafeEqual } from "node:crypto"
import type { FieldError } from "../domain/input/field-error.js"

/** Default and largest page size (docs/api.md, paging). */
export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

/** A validated page request: how many items, after which position. */
export interface PageRequest {
  readonly limit: number
  /** The sort key of the last item already seen; absent on the first page. */
  readonly after: string | undefined
}

/**
 * What a cursor is bound to: the collection that issued it, the Store it was read for and the
 * filters that produced it. A cursor replayed anywhere else is refused, never silently answered
 * with another collection's (or Store's) page.
 */
export interface CursorScope {
  /** A stable name of the collection, such as `customisers`. */
  readonly collection: string
  readonly storeId: number
  readonly filters: Readonly<Record<string, string | undefined>>
}

// The position and the scope, signed with the deployment's cursor key (services/credentials/cursor-key.ts):
// 128 bits keep the cursor small, and without the key no one can make one up.
const cursorTag = (after: string, scope: CursorScope, key: string): string =>
  createHmac("sha256", key)
    .update(JSON.stringify([
      scope.collection,
      scope.storeId,
      Object.keys(scope.filters).sort().map((name) => [name, scope.filters[name] ?? null]),
      after
    ]))
    .digest("base64url")
    .slice(0, 22)

const sameTag = (presented: string, expected: string): boolean =>
  presented.length === expected.length && timingSafeEqual(Buffer.from(presented), Buffer.from(expected))

/** Makes the opaque cursor that resumes after `after` in the same scope, signed with `key`. */
export const encodeCursor = (after: string, scope: CursorScope, key: string): string =>
  Buffer.from(JSON.stringify({ a: after, t: cursorTag(after, scope, key) })).toString("base64url")

const limitFault = (detail: string): FieldError => ({ parameter: "limit", code: "out_of_range", detail })
const cursorFault = (detail: string): FieldError => ({ parameter: "cursor", code: "invalid_cursor", detail })

/**
 * Reads `limit` and `cursor` from a query. A cursor made in another scope (collection, Store or
 * filters), altered, or not made by us at all, is refused rather than silently giving a wrong page.
 */
export const parsePageRequest = (
  query: { readonly limit?: string | undefined; readonly cursor?: string | undefined },
  scope: CursorScope,
  key: string
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
      if (
        typeof decoded !== "object" || decoded === null || !("a" in decoded) || !("t" in decoded) ||
        typeof decoded.a !== "string" || typeof decoded.t !== "string"
      ) {
        errors.push(cursorFault("This cursor was not issued by this API."))
      } else if (!sameTag(decoded.t, cursorTag(decoded.a, scope, key))) {
        errors.push(cursorFault("This cursor was not issued for this collection, Store and filters; follow links.next unchanged."))
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
  scope: CursorScope,
  key: string
): { readonly items: ReadonlyArray<A>; readonly nextCursor: string | undefined } => {
  const items = fetched.slice(0, page.limit)
  const last = items[items.length - 1]
  const hasMore = fetched.length > page.limit && last !== undefined
  return { items, nextCursor: hasMore ? encodeCursor(sortKey(last), scope, key) : undefined }
}
