import { describe, expect, it } from "vitest"
import { cutPage, encodeCursor, nextLink, parsePageRequest } from "../src/http/paging.js"

describe("cursor paging", () => {
  it("defaults limit to 20 and accepts 1 to 100", () => {
    expect(parsePageRequest({}, {})).toEqual({ ok: true, page: { limit: 20, after: undefined } })
    expect(parsePageRequest({ limit: "1" }, {})).toMatchObject({ ok: true, page: { limit: 1 } })
    expect(parsePageRequest({ limit: "100" }, {})).toMatchObject({ ok: true, page: { limit: 100 } })
    for (const bad of ["0", "101", "-1", "2.5", "abc", "", "1e2"]) {
      const result = parsePageRequest({ limit: bad }, {})
      expect(result.ok, bad).toBe(false)
      if (!result.ok) expect(result.errors[0]).toMatchObject({ parameter: "limit" })
    }
  })

  it("resumes after the cursor's position under the same filters", () => {
    const cursor = encodeCursor("42", { status: "active" })
    expect(parsePageRequest({ cursor, limit: "5" }, { status: "active" })).toEqual({ ok: true, page: { limit: 5, after: "42" } })
  })

  it("refuses a cursor made under another filter set, or not made by us", () => {
    const cursor = encodeCursor("42", { status: "active" })
    for (const [query, filters] of [
      [{ cursor }, { status: "paused" }],
      [{ cursor }, {}],
      [{ cursor: "garbage!!" }, {}],
      [{ cursor: Buffer.from("[1]").toString("base64url") }, {}]
    ] as const) {
      const result = parsePageRequest(query, filters)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.errors[0]).toMatchObject({ parameter: "cursor", code: "invalid_cursor" })
    }
  })

  it("cuts a page and says whether more exist", () => {
    const rows = [1, 2, 3, 4]
    const more = cutPage(rows, { limit: 3, after: undefined }, String, {})
    expect(more.items).toEqual([1, 2, 3])
    expect(more.nextCursor).toBe(encodeCursor("3", {}))
    const last = cutPage([4], { limit: 3, after: "3" }, String, {})
    expect(last).toEqual({ items: [4], nextCursor: undefined })
  })

  it("builds links.next from the request URL, keeping the filters", () => {
    expect(nextLink("http://localhost:8080/api/v3/quotes?limit=2&status=open&cursor=old", "new"))
      .toBe("http://localhost:8080/api/v3/quotes?limit=2&status=open&cursor=new")
  })
})
