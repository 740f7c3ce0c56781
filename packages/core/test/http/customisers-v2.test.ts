import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pricing } from "../../src/index.js"
import { createCustomiser as makeCustomiser, databaseVariants, startApp, type TestDatabase, type TestResponse } from "@signcraft/test-kit"
import { idsOf, simpleLetterContent, simpleLetterContentV2, withIdsOf } from "@signcraft/test-kit/pricing-fixtures"

const SCOPES = ["customisers:read", "pricing:read", "pricing:write"]
const V2_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

const expectDeprecated = (res: TestResponse) => {
  expect(res.headers.get("deprecation")).toBe("@1784678400")
  expect(res.headers.get("sunset")).toBe("Fri, 22 Jan 2027 00:00:00 GMT")
  expect(res.headers.get("link")).toMatch(/^<[^>]+>; rel=deprecation; type=text\/html$/)
}

const expectLegacyError = (res: TestResponse, status: number) => {
  expect(res.status).toBe(status)
  expectDeprecated(res)
  expect(typeof res.body.message).toBe("string")
  expect(typeof res.body.errors).toBe("object")
  expect(res.body).not.toHaveProperty("type")
}

describe.each(databaseVariants())("v2 customisers and pricing over HTTP ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 })
    // The first request boots and migrates the database: do it under the hook timeout, not a test's.
    await app.call("GET", "/healthz")
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const createCustomiser = (storeId: number, overrides: Record<string, unknown> = {}) =>
    makeCustomiser(app, storeId, { ...{ name: "Metal", product_family: "metal_cut_out", selection_mode: "per_word" }, ...overrides })
  const putV2 = (key: string, id: number, body: unknown) => app.call("PUT", `/api/v2/customisers/${id}/pricing`, { key, body })
  const getV2 = (key: string, id: number) => app.call("GET", `/api/v2/customisers/${id}/pricing`, { key })
  const getV3 = (key: string, id: number) => app.call("GET", `/api/v3/customisers/${id}/pricing`, { key })

  it("lists and reads customisers in the v2 shape with legacy spellings and microsecond timestamps", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const created = await createCustomiser(seed.storeId)
    const list = await app.call("GET", "/api/v2/customisers", { key: seed.key })
    expect(list.status).toBe(200)
    expectDeprecated(list)
    expect(list.body.customisers).toHaveLength(1)
    const [customiser] = list.body.customisers
    expect(customiser).toEqual({
      customiser_id: created.id,
      name: "Metal",
      price_type: "FIXED_WIDTH",
      product: "CUTOUT_METAL",
      selection_type: "MULTI",
      active: true,
      created_at: expect.stringMatching(V2_TIMESTAMP),
      updated_at: expect.stringMatching(V2_TIMESTAMP)
    })
    // The same instant as v3 shows, at microsecond precision.
    expect(customiser.created_at.slice(0, 23)).toBe(String(created.created_at).slice(0, 23))

    const one = await app.call("GET", `/api/v2/customisers/${created.id}`, { key: seed.key })
    expect(one.status).toBe(200)
    expectDeprecated(one)
    expect(one.body).toEqual({ customiser })
  })

  it("counts each deprecated operation per API key, errors included", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId)
    await app.call("GET", "/api/v2/customisers", { key: seed.key })
    await app.call("GET", "/api/v2/customisers", { key: seed.key })
    await getV2(seed.key, id)
    await putV2(seed.key, id, { pricing: {} })
    await app.call("GET", `/api/v3/customisers/${id}`, { key: seed.key })
    const res = await app.operator("GET", `/stores/${seed.storeId}/deprecated-usage`)
    expect(res.status).toBe(200)
    const counts = Object.fromEntries(res.body.data.map((r: { operation: string; count: number }) => [r.operation, r.count]))
    expect(counts).toEqual({
      "GET /api/v2/customisers": 2,
      "GET /api/v2/customisers/{customiser}/pricing": 1,
      "PUT /api/v2/customisers/{customiser}/pricing": 1
    })
    for (const row of res.body.data) {
      expect(row.api_key_id).toBe(seed.keyId)
      expect(Date.parse(row.last_seen_at)).not.toBeNaN()
    }
  })

  it("answers errors in the v2 format, with the deprecation headers", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const other = await app.seedStore({ scopes: SCOPES })
    const theirs = await createCustomiser(other.storeId)
    expectLegacyError(await app.call("GET", `/api/v2/customisers/${theirs.id}`, { key: seed.key }), 404)
    expectLegacyError(await getV2(seed.key, theirs.id), 404)
    expectLegacyError(await putV2(seed.key, theirs.id, { pricing: simpleLetterContentV2() }), 404)
    expectLegacyError(await app.call("GET", "/api/v2/customisers"), 401)
    const reader = await app.seedStore({ scopes: ["customisers:read"] })
    const own = await createCustomiser(reader.storeId)
    expectLegacyError(await getV2(reader.key, own.id), 403)
    // Another Store's customisers never appear in the list.
    const list = await app.call("GET", "/api/v2/customisers", { key: seed.key })
    expect(list.body.customisers).toEqual([])
  })

  it("GET {pricing} holds the v2 document with value_units and the legacy model", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
    const res = await getV2(seed.key, id)
    expect(res.status).toBe(200)
    expectDeprecated(res)
    expect(res.body.pricing).toEqual({
      pricing_model: "FIXED_WIDTH",
      customiser_id: id,
      value_units: pricing.VALUE_UNITS_V2,
      ...withIdsOf(simpleLetterContentV2(), res.body.pricing, "pricing_id")
    })
    // The ids v3 shows, under their v2 names.
    expect(idsOf(res.body.pricing, "pricing_id")).toEqual(idsOf((await getV3(seed.key, id)).body.data))
  })

  it("PUT {pricing} replaces the document and a v2 client reads back exactly what it wrote", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId)
    const written: Record<string, unknown> & { sizes: Array<Record<string, unknown>> } = simpleLetterContentV2()
    // Both spellings of each sizing strategy: the canonical value alone cannot tell them apart.
    written.sizes = [
      { ...written.sizes[0], height_strategy: "DYNAMIC" },
      { ...written.sizes[1], height_strategy: "FIXED" },
      { ...written.sizes[0], client_key: "w", height_strategy: "WIDTH" },
      { ...written.sizes[1], client_key: "h", height_strategy: "HEIGHT" }
    ]
    const res = await putV2(seed.key, id, { pricing: written })
    expect(res.status).toBe(200)
    expectDeprecated(res)
    const expected = {
      pricing_model: "FIXED_WIDTH",
      customiser_id: id,
      value_units: pricing.VALUE_UNITS_V2,
      ...withIdsOf(written, res.body.pricing, "pricing_id")
    }
    expect(res.body.pricing).toEqual(expected)
    expect((await getV2(seed.key, id)).body.pricing).toEqual(expected)

    // v3 reads the translation: canonical spellings, price_list_id, sheet rows.
    const v3 = await getV3(seed.key, id)
    expect(v3.body.data.sizes.map((s: { sizing_strategy: string }) => s.sizing_strategy)).toEqual([
      "fixed_width",
      "fixed_height",
      "fixed_width",
      "fixed_height"
    ])
    expect(v3.body.data.price_lists[0].price_list_id).toBe(res.body.pricing.price_lists[0].pricing_id)
    expect(v3.body.data.sheet_pricing).toEqual(simpleLetterContent().sheet_pricing)
    expect(v3.body.data).not.toHaveProperty("value_units")
  })

  it("a document written through v3 reads back through v2 as its translation, and the other way round", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId)
    const v3Write = await app.call("PUT", `/api/v3/customisers/${id}/pricing`, {
      key: seed.key,
      body: simpleLetterContent(),
      headers: { "idempotency-key": "v3-first" }
    })
    expect(v3Write.status).toBe(200)
    const asV2 = (await getV2(seed.key, id)).body.pricing
    expect(asV2).toEqual(pricing.pricingV3ToV2(v3Write.body.data))

    // Writing that v2 document back changes nothing a v3 reader sees.
    expect((await putV2(seed.key, id, { pricing: asV2 })).status).toBe(200)
    expect((await getV3(seed.key, id)).body.data).toEqual(v3Write.body.data)
  })

  it("PUT requires pricing with sizes, base_pricing (mode, rows) and price_lists; errors keyed by field", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId)
    const missing = await putV2(seed.key, id, { pricing: { sizes: [], base_pricing: { rows: [] } } })
    expectLegacyError(missing, 422)
    expect(Object.keys(missing.body.errors).sort()).toEqual(["pricing.base_pricing.mode", "pricing.price_lists"])

    expectLegacyError(await putV2(seed.key, id, {}), 422)
    expectLegacyError(await putV2(seed.key, id, "{nope"), 400)

    // A number that overflows (1e400 parses to Infinity) is named by its field.
    const overflow = await putV2(seed.key, id, '{"pricing":{"sizes":[{"name":"A","width_cm":1e400}],"base_pricing":{"mode":"m","rows":[]},"price_lists":[]}}')
    expectLegacyError(overflow, 422)
    expect(Object.keys(overflow.body.errors)).toEqual(["pricing.sizes.0.width_cm"])

    const wrongSpelling: Record<string, unknown> & { sizes: Array<Record<string, unknown>> } = simpleLetterContentV2()
    wrongSpelling.sizes[0] = { ...wrongSpelling.sizes[0], height_strategy: "fixed_width" }
    const res = await putV2(seed.key, id, { pricing: wrongSpelling })
    expectLegacyError(res, 422)
    expect(res.body.errors["pricing.sizes.0.height_strategy"]).toHaveLength(1)
    // Nothing was written by the refused requests.
    expect((await getV2(seed.key, id)).body.pricing.sizes).toEqual([])
  })

  it("PUT ignores members the v2 document does not define, as v2 always did", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId)
    const written = simpleLetterContentV2()
    const res = await putV2(seed.key, id, { pricing: { ...written, price_list: [], sizes: written.sizes.map((size) => ({ ...size, colour: "red" })) }, extra: 1 })
    expect(res.status).toBe(200)
    expect(res.body.pricing).toEqual({
      pricing_model: "FIXED_WIDTH",
      customiser_id: id,
      value_units: pricing.VALUE_UNITS_V2,
      ...withIdsOf(written, res.body.pricing, "pricing_id")
    })
  })

  it("keeps the ids a v2 client writes back, gives new elements new ones, and refuses foreign ids in the v2 format", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
    const read = (await getV2(seed.key, id)).body.pricing
    const res = await putV2(seed.key, id, { pricing: { ...read, price_lists: [...read.price_lists, { name: "Sale", rows: [] }] } })
    expect(res.status).toBe(200)
    const ids = idsOf(res.body.pricing, "pricing_id")
    expect(ids.slice(0, 3)).toEqual(idsOf(read, "pricing_id"))
    expect(idsOf(read, "pricing_id")).not.toContain(ids[3])

    const foreign = await putV2(seed.key, id, { pricing: { ...read, sizes: [], price_lists: [{ pricing_id: read.sizes[0].size_id, name: "L", rows: [] }] } })
    expectLegacyError(foreign, 422)
    expect(Object.keys(foreign.body.errors)).toEqual(["pricing.price_lists.0.pricing_id"])
  })

  it("refuses letter pricing on a frame-fit customiser and any write to a legacy_fixed_height one", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const frame = await createCustomiser(seed.storeId, { pricing_model: "frame_fit" })
    const letters = simpleLetterContentV2()
    expectLegacyError(await putV2(seed.key, frame.id, { pricing: { ...letters, base_pricing: { mode: "included_in_price_lists", rows: [] } } }), 422)

    const legacy = await createCustomiser(seed.storeId, { pricing_model: "legacy_fixed_height" })
    const read = await getV2(seed.key, legacy.id)
    expect(read.status).toBe(200)
    expect(read.body.pricing.pricing_model).toBe("FIXED_HEIGHT")
    const customiser = await app.call("GET", `/api/v2/customisers/${legacy.id}`, { key: seed.key })
    expect(customiser.body.customiser.price_type).toBe("FIXED_HEIGHT")
    expectLegacyError(await putV2(seed.key, legacy.id, { pricing: { sizes: [], base_pricing: { mode: "included_in_price_lists", rows: [] }, price_lists: [] } }), 422)
  })
})
