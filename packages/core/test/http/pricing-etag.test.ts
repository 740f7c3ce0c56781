import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCustomiser, databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"

// The pricing read (docs/fast-reads.md): a strong ETag, If-None-Match answered 304, and a per-process
// cache that no write, in this process or (on PostgreSQL) another, leaves stale.
describe.each(databaseVariants())("the pricing read's ETag and cache ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  // A second process on the same database; only PostgreSQL can be shared.
  let other: ReturnType<typeof startApp> | undefined

  beforeAll(async () => {
    db = await variant.create()
    const limits = { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 }
    app = startApp(db.config, limits)
    await app.call("GET", "/healthz")
    if (variant.name === "postgres") {
      other = startApp(db.config, limits)
      await other.call("GET", "/healthz")
    }
  })
  afterAll(async () => {
    await other?.dispose()
    await app.dispose()
    await db.cleanup()
  })

  const seed = async () => {
    const store = await app.seedStore({ scopes: ["pricing:read", "pricing:write"] })
    const customiser = await createCustomiser(app, store.storeId, { pricing: simpleLetterContent() })
    return { ...store, customiserId: customiser.id }
  }
  const read = (target: ReturnType<typeof startApp>, key: string, id: number, ifNoneMatch?: string) =>
    target.call("GET", `/api/v3/customisers/${id}/pricing`, {
      key,
      ...(ifNoneMatch === undefined ? {} : { headers: { "if-none-match": ifNoneMatch } })
    })
  const put = (target: ReturnType<typeof startApp>, key: string, id: number, content: unknown, idempotencyKey: string) =>
    target.call("PUT", `/api/v3/customisers/${id}/pricing`, { key, body: content, headers: { "idempotency-key": idempotencyKey } })
  const renamed = (name: string) => {
    const content = simpleLetterContent()
    return { ...content, sizes: content.sizes.map((size, index) => (index === 0 ? { ...size, name } : size)) }
  }

  it("names the document with a strong ETag that repeats while it is unchanged", async () => {
    const s = await seed()
    const first = await read(app, s.key, s.customiserId)
    const second = await read(app, s.key, s.customiserId)
    expect(first.status).toBe(200)
    expect(first.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/)
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"))
    expect(first.headers.get("cache-control")).toBe("private, no-cache")
    // The cached answer is the document itself, in the envelope, with this request's own id.
    expect(second.body.data).toEqual(first.body.data)
    expect(second.body.data).toMatchObject({ object: "pricing", customiser_id: s.customiserId })
    expect(second.body.meta.request_id).not.toBe(first.body.meta.request_id)
    expect(second.body.links.self).toBe(`${first.body.links.self}`)
  })

  it("answers If-None-Match with 304 and no body while the document is unchanged", async () => {
    const s = await seed()
    const etag = (await read(app, s.key, s.customiserId)).headers.get("etag") ?? ""
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await read(app, s.key, s.customiserId, header)
      expect(res.status, header).toBe(304)
      expect(res.body, header).toBeUndefined()
      expect(res.headers.get("etag"), header).toBe(etag)
    }
    for (const header of ['"other"', "not-a-tag", etag.slice(0, -2) + '"']) {
      expect((await read(app, s.key, s.customiserId, header)).status, header).toBe(200)
    }
  })

  it("gives a written document a new ETag, and reads it back at once", async () => {
    const s = await seed()
    const before = await read(app, s.key, s.customiserId)
    expect((await put(app, s.key, s.customiserId, renamed("Tiny"), "etag-1")).status).toBe(200)
    const after = await read(app, s.key, s.customiserId, before.headers.get("etag") ?? "")
    expect(after.status).toBe(200)
    expect(after.body.data.sizes[0].name).toBe("Tiny")
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"))
  })

  it("never shows a cached document to another Store's key", async () => {
    const s = await seed()
    const stranger = await app.seedStore({ scopes: ["pricing:read"] })
    expect((await read(app, s.key, s.customiserId)).status).toBe(200)
    const res = await read(app, stranger.key, s.customiserId)
    expect(res.status).toBe(404)
    expect(res.body.code).toBe("not_found")
  })

  it.runIf(variant.name === "postgres")("drops a process's cached document when another process writes it", async () => {
    const s = await seed()
    const peer = other as ReturnType<typeof startApp>
    // Both processes hold the document.
    const original = await read(app, s.key, s.customiserId)
    expect((await read(peer, s.key, s.customiserId)).headers.get("etag")).toBe(original.headers.get("etag"))
    expect((await put(peer, s.key, s.customiserId, renamed("Elsewhere"), "etag-2")).status).toBe(200)
    // The notification arrives asynchronously; within a few seconds the first process shows the write.
    let seen = ""
    for (let attempt = 0; attempt < 50 && seen !== "Elsewhere"; attempt += 1) {
      seen = (await read(app, s.key, s.customiserId)).body.data.sizes[0].name
      if (seen !== "Elsewhere") await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(seen).toBe("Elsewhere")
  })
})
