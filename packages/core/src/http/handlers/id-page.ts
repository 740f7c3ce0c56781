import { Effect } from "effect"
import { InvalidParameter } from "../../domain/errors.js"
import { isStorableId } from "../../storage/rows.js"
import { type CursorScope, cutPage, parsePageRequest } from "../paging.js"
import { collectionEnvelope } from "./envelope.js"

/** Where the next page of an id-ordered collection starts: how many rows to fetch, and after (or before) which id. */
export interface IdPageRequest {
  /** One more than the page size: the extra row only tells whether more follow. */
  readonly limit: number
  readonly cursorId: number | undefined
}

/**
 * Serves one page of a collection ordered by integer id (docs/api.md, paging): reads `limit` and
 * `cursor` (bound to `scope`, signed with the deployment's cursor `key`), fetches the rows after the cursor's id, and answers the
 * collection envelope with `links.next` while more follow. A cursor whose position is not an id
 * we could have issued is refused like any foreign cursor, never handed to the database.
 */
export const idPage = <Row extends { readonly id: number }, View, E, R>(
  query: { readonly limit?: string | undefined; readonly cursor?: string | undefined },
  scope: CursorScope,
  key: string,
  fetch: (page: IdPageRequest) => Effect.Effect<ReadonlyArray<Row>, E, R>,
  view: (row: Row) => View
) =>
  Effect.gen(function*() {
    const request = parsePageRequest(query, scope, key)
    if (!request.ok) return yield* new InvalidParameter({ errors: request.errors })
    const { page } = request
    const cursorId = page.after === undefined ? undefined : Number(page.after)
    if (cursorId !== undefined && !isStorableId(cursorId)) {
      return yield* new InvalidParameter({
        errors: [{ parameter: "cursor", code: "invalid_cursor", detail: "This cursor was not issued by this API." }]
      })
    }
    const rows = yield* fetch({ limit: page.limit + 1, cursorId })
    const { items, nextCursor } = cutPage(rows, page, (row) => String(row.id), scope, key)
    return yield* collectionEnvelope(items.map(view), nextCursor)
  })
