import { describe, expect, it } from "vitest"
import { type CursorScope, cutPage, encodeCursor, nextLink, parsePageRequest } from "../src/http/paging.js"

const KEY = "test-cursor-key"

const scope = (filters: CursorScope["filters"] = {}, overrides: Partial<CursorScope> = {}): CursorScope => ({
  collection: "quotes",
  storeId: 7,
  filters,
  ...overrides
})

describe("cursor paging", () => {
  it("defaults limit to 20 and accepts 1 to 100", () => {
    expect(parsePageRequest({}, scope(), KEY)).toEqual({ ok: true, page: { limit: 20, after: undefined } })
    expect(parsePageRequest({ limit: "1" }, scope(), KEY)).toMatchObject({ ok: true, page: { limit: 1 } })
    expect(parsePageRequest({ limit: "100" }, scope(), KEY)).toMatchObject({ ok: true, page: { limit: 100 } })
    for (const bad of ["0", "101", "-1", "2.5", "abc", "", "1e2"]) {
      const result = parsePageRequest({ limit: bad }, scope(), KEY)
      expect(result.ok, bad).toBe(false)
      if (!result.ok) expect(result.errors[0]).toMatchObject({ parameter: "limit" })
    }
  })

  it("resumes after the cursor's position under the same filters", () => {
    const cursor = encodeCursor("42", scope({ status: "active" }), KEY)
    expect(parsePageRequest({ cursor, limit: "5" }, scope({ status: "active" }), KEY)).toEqual({ ok: true, page: { limit: 5, after: "42" } })
  })

  it("refuses a cursor made in another scope (filters, collection, Store), altered, or not made with the key", () => {
    const cursor = encodeCursor("42", scope({ status: "active" }), KEY)
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    const altered = Buffer.from(JSON.stringify({ ...decoded, a: "41" })).toString("base64url")
    for (const [query, where, key] of [
      [{ cursor }, scope({ status: "paused" }), KEY],
      [{ cursor }, scope(), KEY],
      [{ cursor }, scope({ status: "active" }, { collection: "customisers" }), KEY],
      [{ cursor }, scope({ status: "active" }, { storeId: 8 }), KEY],
      [{ cursor }, scope({ status: "active" }), "another deployment's key"],
      [{ cursor: altered }, scope({ status: "active" }), KEY],
      [{ cursor: "garbage!!" }, scope(), KEY],
      [{ cursor: Buffer.from("[1]").toString("base64url") }, scope(), KEY]
    ] as const) {
      const result = parsePageRequest(query, where, key)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.errors[0]).toMatchObject({ parameter: "cursor", code: "invalid_cursor" })
    }
  })

  it("cuts a page and says whether more exist", () => {
    const rows = [1, 2, 3, 4]
    const more = cutPage(rows, { limit: 3, after: undefined }, String, scope(), KEY)
    expect(more.items).toEqual([1, 2, 3])
    expect(more.nextCursor).toBe(encodeCursor("3", scope(), KEY))
    const last = cutPage([4], { limit: 3, after: "3" }, String, scope(), KEY)
    expect(last).toEqual({ items: [4], nextCursor: undefined })
  })

  it("builds links.next from the request URL, keeping the filters", () => {
    expect(nextLink("http://localhost:8080/api/v3/quotes?limit=2&status=open&cursor=old", "new"))
      .toBe("http://localhost:8080/api/v3/quotes?limit=2&status=open&cursor=new")
  })
})
