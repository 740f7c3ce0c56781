import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FastAnswer, type FastReads, makeFastReads } from "../../src/http/fast-reads.js"
import { atOriginRoot } from "../../src/http/base-path.js"
import { createCustomiser, databaseVariants, startApp, type TestDatabase, type TestResponse } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"

// The fast reads (docs/fast-reads.md): the hottest reads answered without building a framework request.
// They must answer exactly as the full path does, spend the quota once, log alike, and leave
// everything they do not hold to the full path.
describe.each(databaseVariants())("the fast reads ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let fast: FastReads
  const lines: Array<Readonly<Record<string, string | number>>> = []
  const clock = adjustableClock()

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 1_000, rateLimitPerIpPerMinute: 100_000 }, {}, { clock })
    await app.call("GET", "/healthz")
    // Over the same services (one memo map) as the handler: the same key cache, quotas and pricing cache.
    fast = await app.run(makeFastReads((line) => lines.push(line), undefined, atOriginRoot))
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const seed = async (scopes: ReadonlyArray<string> = ["store:read", "pricing:read"]) => {
    const store = await app.seedStore({ scopes })
    const customiser = await createCustomiser(app, store.storeId, { pricing: simpleLetterContent() })
    return { ...store, customiserId: customiser.id }
  }
  // A web-handler request carries no peer address: the full path counts it as "unknown".
  const fastGet = (path: string, key: string, headers: Record<string, string> = {}) =>
    fast("GET", path, { authorization: `Bearer ${key}`, ...headers }, "unknown")
  const slowGet = (path: string, key: string, headers: Record<string, string> = {}) => app.call("GET", path, { key, headers })
  // The full path's answer, then the fast path's. The full path verifies the key, which the fast
  // path then trusts for a second (credentials.ts) of the app's clock: it stands still here, so no
  // load on the machine can let that second pass in between.
  const slowThenFast = async (path: string, key: string, headers: Record<string, string> = {}) => {
    const slow = await slowGet(path, key, headers)
    return { slow, fast: fastGet(path, key, headers) }
  }

  // Everything but what differs per request by design: the request id and the quota left. The
  // headers as a sorted list, so a header the fast path sent twice shows.
  const comparable = (status: number, headers: Iterable<readonly [string, string]>, body: unknown) => {
    const kept = [...headers].filter(([name]) => !["x-request-id", "ratelimit", "date"].includes(name.toLowerCase()))
    return { status, headers: kept.map(([name, value]) => `${name.toLowerCase()}: ${value}`).sort(), body }
  }
  // The answer's headers, given as name, value, name, value.
  const headerEntries = (answer: FastAnswer): Array<readonly [string, string]> => {
    const entries: Array<readonly [string, string]> = []
    for (let index = 0; index < answer.headers.length; index += 2) entries.push([answer.headers[index] ?? "", answer.headers[index + 1] ?? ""])
    return entries
  }
  const headerOf = (answer: FastAnswer | undefined, name: string) =>
    answer === undefined ? undefined : headerEntries(answer).find(([named]) => named === name)?.[1]
  const textOf = (answer: FastAnswer | undefined) =>
    answer === undefined ? "" : typeof answer.body === "string" ? answer.body : answer.body.toString("utf8")
  const ofFast = (answer: FastAnswer) =>
    comparable(answer.status, headerEntries(answer), textOf(answer) === "" ? undefined : withoutRequestId(JSON.parse(textOf(answer))))
  const ofSlow = (res: TestResponse) => comparable(res.status, res.headers.entries(), res.body === undefined ? undefined : withoutRequestId(res.body))
  const withoutRequestId = (body: { meta?: { request_id?: string } }) => ({ ...body, meta: { ...body.meta, request_id: "(per request)" } })

  it("answer stores/me and a cached pricing document exactly as the full path does", async () => {
    const s = await seed()
    const mePath = "/api/v3/stores/me"
    const pricingPath = `/api/v3/customisers/${s.customiserId}/pricing`
    // The full path verifies the key and caches the document; from then on the fast reads hold them.
    const { slow: slowMe, fast: fastMe } = await slowThenFast(mePath, s.key)
    const { slow: slowPricing, fast: fastPricing } = await slowThenFast(pricingPath, s.key)
    expect(fastMe).toBeDefined()
    expect(fastPricing).toBeDefined()
    expect(ofFast(fastMe as FastAnswer)).toEqual(ofSlow(slowMe))
    expect(ofFast(fastPricing as FastAnswer)).toEqual(ofSlow(slowPricing))
    // If-None-Match: the same 304.
    const etag = slowPricing.headers.get("etag") ?? ""
    const notModified = await slowThenFast(pricingPath, s.key, { "if-none-match": etag })
    expect(notModified.fast?.status).toBe(304)
    expect(ofFast(notModified.fast as FastAnswer)).toEqual(ofSlow(notModified.slow))
  })

  it("spend one token of the key per answer and tell what is left, as the full path does", async () => {
    const s = await seed()
    const primed = await slowThenFast("/api/v3/stores/me", s.key)
    expect(primed.fast).toBeDefined()
    const left = (value: string | undefined | null) => Number(/r=(\d+)/.exec(value ?? "")?.[1])
    const first = left(headerOf(primed.fast, "ratelimit"))
    const second = left(headerOf(fastGet("/api/v3/stores/me", s.key), "ratelimit"))
    const third = left((await slowGet("/api/v3/stores/me", s.key)).headers.get("ratelimit"))
    expect(second).toBe(first - 1)
    expect(third).toBe(second - 1)
  })

  it("log the same line as the full path", async () => {
    const s = await seed()
    expect((await slowThenFast("/api/v3/stores/me", s.key)).fast).toBeDefined()
    lines.length = 0
    const answer = fastGet("/api/v3/stores/me", s.key)
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        request_id: headerOf(answer, "x-request-id"),
        method: "GET",
        route: "/api/v3/stores/me",
        status: 200
      })
    ])
  })

  it("leave to the full path whatever they do not hold, and spend nothing then", async () => {
    const s = await seed()
    const narrow = await seed(["store:read"])
    const stranger = await seed()
    const pricingPath = `/api/v3/customisers/${s.customiserId}/pricing`
    // A key not yet verified in this process, a document not yet cached.
    expect(fastGet("/api/v3/stores/me", s.key)).toBeUndefined()
    expect(fastGet(pricingPath, s.key)).toBeUndefined()
    await slowGet(pricingPath, s.key)
    await slowGet("/api/v3/stores/me", narrow.key)
    await slowGet("/api/v3/stores/me", stranger.key)
    const before = headerOf((await slowThenFast("/api/v3/stores/me", s.key)).fast, "ratelimit")
    expect(before).toBeDefined()
    const passed: Array<FastAnswer | undefined> = [
      // A scope the key lacks (the full path answers 403), another Store's customiser (404).
      fastGet(pricingPath, narrow.key),
      fastGet(pricingPath, stranger.key),
      // Other spellings and shapes of the request, each the full path's to judge.
      fastGet(`${pricingPath}?x=1`, s.key),
      fastGet(`/api/v3/customisers/0${s.customiserId}/pricing`, s.key),
      fastGet("/api/v3/stores/me/", s.key),
      fast("GET", "/api/v3/stores/me", { authorization: `bearer ${s.key}` }, "unknown"),
      fast("GET", "/api/v3/stores/me", { authorization: `Bearer  ${s.key}` }, "unknown"),
      fast("HEAD", "/api/v3/stores/me", { authorization: `Bearer ${s.key}` }, "unknown"),
      fast("GET", "/api/v3/stores/me", {}, "unknown"),
      fastGet("/api/v3/stores/me", s.key, { "x-signcraft-rate-limit-test": "true" }),
      fastGet("/api/v3/customisers", s.key)
    ]
    expect(passed).toEqual(passed.map(() => undefined))
    const after = headerOf(fastGet("/api/v3/stores/me", s.key), "ratelimit")
    expect(Number(/r=(\d+)/.exec(after ?? "")?.[1])).toBe(Number(/r=(\d+)/.exec(before ?? "")?.[1]) - 1)
  })

  it("never serve a document its write replaced", async () => {
    const s = await seed(["pricing:read", "pricing:write"])
    const pricingPath = `/api/v3/customisers/${s.customiserId}/pricing`
    expect((await slowThenFast(pricingPath, s.key)).fast).toBeDefined()
    const content = simpleLetterContent()
    // Not ASCII, so the answer's bytes are UTF-8 of more than one byte per character.
    const renamed = { ...content, sizes: content.sizes.map((size, index) => (index === 0 ? { ...size, name: "Renommé ✓" } : size)) }
    const put = await app.call("PUT", pricingPath, { key: s.key, body: renamed, headers: { "idempotency-key": "fast-reads-1" } })
    expect(put.status).toBe(200)
    // The write dropped the cached document: the full path reads it again, then it is held anew.
    // On PostgreSQL the write's own notice can arrive after that read and drop it once more, a
    // miss and never a stale answer, so the full path reads until the fast path holds it.
    expect(fastGet(pricingPath, s.key)).toBeUndefined()
    let held: ReturnType<typeof fastGet>
    for (let attempt = 0; attempt < 50 && held === undefined; attempt++) {
      await slowGet(pricingPath, s.key)
      held = fastGet(pricingPath, s.key)
      if (held === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(JSON.parse(textOf(held)).data.sizes[0].name).toBe("Renommé ✓")
    // Byte for byte the full path's answer (with this answer's request id), read after read: the
    // later ones send the document as encoded for the first.
    const { slow, fast: first } = await slowThenFast(pricingPath, s.key)
    for (const answer of [first, fastGet(pricingPath, s.key), fastGet(pricingPath, s.key)]) {
      const requestId = JSON.parse(textOf(answer)).meta.request_id
      const expected = JSON.stringify({ ...slow.body, meta: { ...slow.body.meta, request_id: requestId } })
      expect(Buffer.from(answer?.body ?? "")).toEqual(Buffer.from(expected, "utf8"))
    }
  })
})
