import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { canonicalFingerprint } from "../../src/http/middleware/body.js"
import { encodeCursor } from "../../src/http/paging.js"
import { CursorKey } from "../../src/services/credentials/cursor-key.js"
import { createCustomiser as makeCustomiser, databaseVariants, OPERATOR_TOKEN, startApp, type TestDatabase, type TestResponse } from "@signcraft/test-kit"
import { idsOf, simpleLetterContent, withIdsOf } from "@signcraft/test-kit/pricing-fixtures"

const ALL_READS = ["customisers:read", "pricing:read", "pricing:write"]

const expectProblem = (res: TestResponse, status: number, code: string) => {
  expect(res.status).toBe(status)
  expect(res.headers.get("content-type")).toContain("application/problem+json")
  expect(res.body.code).toBe(code)
  expect(res.body.status).toBe(status)
}

describe.each(databaseVariants())("customisers over HTTP ($name database)", (variant) => {
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
    makeCustomiser(app, storeId, overrides)

  describe("operator creation", () => {
    it("answers 201 with the v3 customiser, canonical spellings and an integer id", async () => {
      const seed = await app.seedStore()
      const res = await app.operator("POST", `/stores/${seed.storeId}/customisers`, {
        name: "Channel",
        product_family: "channel_letter",
        selection_mode: "per_word",
        pricing_model: "advanced_letter",
        active: false
      })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        object: "customiser",
        name: "Channel",
        product_family: "channel_letter",
        selection_mode: "per_word",
        pricing_model: "advanced_letter",
        active: false
      })
      expect(Number.isInteger(res.body.id)).toBe(true)
      expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    })

    it("refuses unknown spellings with allowed_values, and legacy spellings", async () => {
      const seed = await app.seedStore()
      const res = await app.operator("POST", `/stores/${seed.storeId}/customisers`, {
        name: "X",
        product_family: "NEON",
        selection_mode: "single_style",
        pricing_model: "simple_letter"
      })
      expectProblem(res, 422, "validation_failed")
      const fault = res.body.errors.find((e: { pointer: string }) => e.pointer === "/product_family")
      expect(fault.allowed_values).toEqual(["neon", "channel_letter", "metal_cut_out"])
    })

    it("validates an initial pricing document, pointing into the body, and creates nothing on failure", async () => {
      const seed = await app.seedStore({ scopes: ["customisers:read"] })
      const res = await app.operator("POST", `/stores/${seed.storeId}/customisers`, {
        name: "Frame",
        product_family: "neon",
        selection_mode: "single_style",
        pricing_model: "frame_fit",
        pricing: { price_lists: [{ name: "Letters", letter_pricing_method: "fixed_letter", rows: [] }] }
      })
      expectProblem(res, 422, "invalid_pricing_model")
      expect(res.body.errors[0].pointer).toBe("/pricing/price_lists/0/letter_pricing_method")
      const list = await app.call("GET", "/api/v3/customisers", { key: seed.key })
      expect(list.body.data).toEqual([])
    })

    it("stores a valid initial pricing document", async () => {
      const seed = await app.seedStore({ scopes: ["pricing:read"] })
      const created = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const res = await app.call("GET", `/api/v3/customisers/${created.id}/pricing`, { key: seed.key })
      expect(res.body.data).toEqual({
        object: "pricing",
        pricing_model: "simple_letter",
        pricing_model_display_name: expect.any(String),
        currency: "USD",
        customiser_id: created.id,
        ...withIdsOf(simpleLetterContent(), res.body.data)
      })
      expect(idsOf(res.body.data).every((id) => Number.isInteger(id))).toBe(true)
    })

    it("answers 404 for an unknown Store", async () => {
      const res = await app.operator("POST", "/stores/999999/customisers", {
        name: "X",
        product_family: "neon",
        selection_mode: "single_style",
        pricing_model: "simple_letter"
      })
      expectProblem(res, 404, "not_found")
    })
  })

  it("documents every customiser and pricing operation in the OpenAPI document, with the pricing body schema", async () => {
    const doc = JSON.parse(await app.handlerText("/api/v3/openapi.json"))
    const pricingPath = doc.paths["/api/v3/customisers/{customiser_id}/pricing"]
    expect(Object.keys(pricingPath).sort()).toEqual(expect.arrayContaining(["get", "patch", "put"]))
    expect(doc.paths["/api/v3/customisers"].get).toBeDefined()
    expect(doc.paths["/api/v3/customisers/{customiser_id}/pricing/validate"].post).toBeDefined()
    const ref: string = pricingPath.put.requestBody.content["application/json"].schema.$ref
    const schema = doc.components.schemas[ref.split("/").pop() ?? ""]
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["sizes", "base_pricing", "price_lists", "sheet_pricing"]))
    // Members the document does not define are refused, and the schema says so.
    expect(schema.additionalProperties).toBe(false)
    expect(Object.keys(pricingPath.patch.requestBody.content)).toContain("application/merge-patch+json")
  })

  describe("v3 reads", () => {
    it("pages the collection with limit, cursor, links.next and has_more", async () => {
      const seed = await app.seedStore({ scopes: ["customisers:read"] })
      const ids = [] as Array<number>
      for (const name of ["A", "B", "C"]) ids.push((await createCustomiser(seed.storeId, { name })).id)

      const first = await app.call("GET", "/api/v3/customisers?limit=2", { key: seed.key })
      expect(first.status).toBe(200)
      expect(first.body.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(0, 2))
      expect(first.body.pagination.has_more).toBe(true)
      expect(first.body.meta.request_id).toMatch(/^req_/)
      const next = new URL(first.body.links.next)
      expect(next.searchParams.get("limit")).toBe("2")

      const second = await app.call("GET", `${next.pathname}${next.search}`, { key: seed.key })
      expect(second.body.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(2))
      expect(second.body.pagination.has_more).toBe(false)
      expect(second.body.links.next).toBeUndefined()

      const all = await app.call("GET", "/api/v3/customisers", { key: seed.key })
      expect(all.body.data).toHaveLength(3)
      expect(all.body.data[0]).toMatchObject({ object: "customiser", name: "A", pricing_model: "simple_letter" })
    })

    it("refuses a bad limit or a foreign cursor with invalid_parameter", async () => {
      const seed = await app.seedStore({ scopes: ["customisers:read"] })
      const bad = await app.call("GET", "/api/v3/customisers?limit=0", { key: seed.key })
      expectProblem(bad, 422, "invalid_parameter")
      expect(bad.body.errors[0].parameter).toBe("limit")
      const cursor = await app.call("GET", "/api/v3/customisers?cursor=nonsense", { key: seed.key })
      expectProblem(cursor, 422, "invalid_parameter")
      expect(cursor.body.errors[0].parameter).toBe("cursor")
      // Signed with the deployment's key for the right scope, but not a position we issue: refused, never a 500.
      const key = await app.run(Effect.map(Effect.service(CursorKey), (cursorKey) => cursorKey.secret))
      for (const position of ["x", "-1", "1e400", "99999999999"]) {
        const scope = { collection: "customisers", storeId: seed.storeId, filters: {} }
        const forged = await app.call("GET", `/api/v3/customisers?cursor=${encodeCursor(position, scope, key)}`, { key: seed.key })
        expectProblem(forged, 422, "invalid_parameter")
      }
    })

    it("reads one customiser; another Store's, a malformed and an out-of-range id answer 404", async () => {
      const mine = await app.seedStore({ scopes: ["customisers:read", "pricing:read"] })
      const theirs = await app.seedStore({ scopes: ["customisers:read"] })
      const own = await createCustomiser(mine.storeId)
      const foreign = await createCustomiser(theirs.storeId)

      const res = await app.call("GET", `/api/v3/customisers/${own.id}`, { key: mine.key })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual(own)

      for (const path of [
        `/api/v3/customisers/${foreign.id}`,
        `/api/v3/customisers/${foreign.id}/pricing`,
        "/api/v3/customisers/abc",
        "/api/v3/customisers/99999999999",
        "/api/v3/customisers/0"
      ]) {
        expectProblem(await app.call("GET", path, { key: mine.key }), 404, "not_found")
      }
      const list = await app.call("GET", "/api/v3/customisers", { key: mine.key })
      expect(list.body.data.map((c: { id: number }) => c.id)).toEqual([own.id])
    })

    it("needs customisers:read and pricing:read", async () => {
      const seed = await app.seedStore({ scopes: ["store:read"] })
      const created = await createCustomiser(seed.storeId)
      const list = await app.call("GET", "/api/v3/customisers", { key: seed.key })
      expectProblem(list, 403, "insufficient_scope")
      expect(list.body.required_scopes).toEqual(["customisers:read"])
      const pricing = await app.call("GET", `/api/v3/customisers/${created.id}/pricing`, { key: seed.key })
      expect(pricing.body.required_scopes).toEqual(["pricing:read"])
    })

    it("reads an unpriced customiser as an empty document", async () => {
      const seed = await app.seedStore({ scopes: ["pricing:read"] })
      const created = await createCustomiser(seed.storeId, { pricing_model: "frame_fit" })
      const res = await app.call("GET", `/api/v3/customisers/${created.id}/pricing`, { key: seed.key })
      expect(res.body.data).toMatchObject({
        object: "pricing",
        pricing_model: "frame_fit",
        currency: "USD",
        customiser_id: created.id,
        sizes: [],
        price_lists: [],
        sheet_pricing: null
      })
    })
  })

  describe("v3 pricing writes", () => {
    const put = (key: string, id: number, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
      app.call("PUT", `/api/v3/customisers/${id}/pricing`, { key, body, headers: { "idempotency-key": idempotencyKey } })
    const patch = (key: string, id: number, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
      app.call("PATCH", `/api/v3/customisers/${id}/pricing`, {
        key,
        body,
        headers: { "idempotency-key": idempotencyKey, "content-type": "application/merge-patch+json" }
      })
    const read = async (key: string, id: number) =>
      (await app.call("GET", `/api/v3/customisers/${id}/pricing`, { key })).body.data

    it("PUT replaces the whole document and answers it under data", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const res = await put(seed.key, id, simpleLetterContent())
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ object: "pricing", customiser_id: id, ...simpleLetterContent() })
      expect(await read(seed.key, id)).toEqual(res.body.data)
      // Members come back in the documented order (header first), not the storage engine's.
      expect(Object.keys(res.body.data)).toEqual([
        "object",
        "pricing_model",
        "pricing_model_display_name",
        "currency",
        "customiser_id",
        ...Object.keys(simpleLetterContent())
      ])
      expect(Object.keys(await read(seed.key, id))).toEqual(Object.keys(res.body.data))

      // Full replacement: what is omitted is deleted.
      const { price_lists: _lists, sheet_pricing: _sheet, ...rest } = simpleLetterContent()
      const smaller = { ...rest, sizes: rest.sizes.slice(0, 1) }
      await put(seed.key, id, smaller)
      const after = await read(seed.key, id)
      expect(after.sizes).toHaveLength(1)
      expect(after.price_lists).toBeUndefined()
      expect(after.sheet_pricing).toBeUndefined()
    })

    it("PUT accepts the read-only header when it agrees, and refuses it when it does not", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const current = await read(seed.key, id)
      expect((await put(seed.key, id, { ...current, ...simpleLetterContent() })).status).toBe(200)

      const res = await put(seed.key, id, { ...simpleLetterContent(), currency: "EUR", customiser_id: id + 1, pricing_model: "frame_fit" })
      expectProblem(res, 422, "validation_failed")
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/currency", "/customiser_id", "/pricing_model"])
    })

    it("PUT reports every fault at once with its pointer, and changes nothing", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const before = await read(seed.key, id)
      const body = simpleLetterContent()
      const broken = {
        ...body,
        sizes: [{ ...body.sizes[0], line_limit: 11, name: undefined, sizing_strategy: "WIDTH" }],
        sheet_pricing: { rows: [{ width_limit_cm: 1, height_limit_cm: 1, base_price: -1 }] }
      }
      const res = await put(seed.key, id, broken)
      expectProblem(res, 422, "validation_failed")
      const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer)
      expect(pointers).toEqual(expect.arrayContaining([
        "/sizes/0/line_limit",
        "/sizes/0/name",
        "/sizes/0/sizing_strategy",
        "/sheet_pricing/rows/0/base_price",
        "/sheet_pricing/rows/0/price_per_sq_cm"
      ]))
      const strategy = res.body.errors.find((e: { pointer: string }) => e.pointer === "/sizes/0/sizing_strategy")
      expect(strategy.allowed_values).toEqual(["fixed_width", "fixed_height"])
      expect(await read(seed.key, id)).toEqual(before)
    })

    it("refuses members the document does not define on PUT, PATCH and validate, and deletes nothing", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const before = await read(seed.key, id)
      const { price_lists, ...rest } = simpleLetterContent()
      const misspelt = await put(seed.key, id, { ...rest, price_list: price_lists })
      expectProblem(misspelt, 422, "validation_failed")
      expect(misspelt.body.errors).toEqual([{ pointer: "/price_list", code: "unknown_field", detail: expect.any(String) }])
      const validated = await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, {
        key: seed.key,
        body: { ...rest, price_list: price_lists }
      })
      expectProblem(validated, 422, "validation_failed")
      expect(validated.body.errors).toEqual(misspelt.body.errors)
      // The merge patch result is checked the same way, wherever the unknown member sits.
      const patched = await patch(seed.key, id, { sheet_pricing: { rows: [{ width_limit_cm: 1, height_limit_cm: 1, base_price: 1, price_per_sq_cm: 1, colour: "red" }] } })
      expectProblem(patched, 422, "validation_failed")
      expect(patched.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
        ["/sheet_pricing/rows/0/colour", "unknown_field"]
      ])
      expect(await read(seed.key, id)).toEqual(before)
    })

    it("names the field of a number that overflows it (1e400 parses to Infinity) on every pricing write", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const overflowing = '{"sizes":[{"name":"A","width_cm":1e400}]}'
      const writes = [
        await put(seed.key, id, overflowing),
        await patch(seed.key, id, overflowing),
        await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, { key: seed.key, body: overflowing })
      ]
      for (const res of writes) {
        expectProblem(res, 422, "validation_failed")
        expect(res.body.errors).toEqual([{ pointer: "/sizes/0/width_cm", code: "out_of_range", detail: expect.any(String) }])
      }
      const created = await app.call("POST", `/operator/v1/stores/${seed.storeId}/customisers`, {
        body: `{"name":"N","product_family":"neon","selection_mode":"single_style","pricing_model":"simple_letter","pricing":${overflowing}}`,
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }
      })
      expectProblem(created, 422, "validation_failed")
      expect(created.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/pricing/sizes/0/width_cm"])
    })

    it("gives every size and price list an id, kept when written back and never reused", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const first = (await put(seed.key, id, simpleLetterContent())).body.data
      const firstIds = idsOf(first)
      expect(firstIds).toHaveLength(3)
      for (const assigned of firstIds) expect(Number.isInteger(assigned) && Number(assigned) > 0).toBe(true)
      expect(new Set(firstIds).size).toBe(3)
      expect(first).toMatchObject(withIdsOf(simpleLetterContent(), first))

      // Written back as read, every element keeps its id; one written without an id gets a new one.
      const second = (await put(seed.key, id, { ...first, sizes: [{ name: "Extra" }, ...first.sizes] })).body.data
      expect(idsOf(second).slice(1)).toEqual(firstIds)
      expect(firstIds).not.toContain(second.sizes[0].size_id)

      // Deleted elements' ids are never handed out again.
      const third = (await put(seed.key, id, { sizes: [{ name: "Again" }] })).body.data
      expect([...firstIds, second.sizes[0].size_id]).not.toContain(third.sizes[0].size_id)
    })

    it("refuses an id that does not belong to the document with its pointer, on every write, and stores nothing", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const before = await read(seed.key, id)
      const [small, large, list] = idsOf(before)
      // The price list's id is no size's id, and a row may only name a size of the written document.
      const body = {
        sizes: [{ size_id: list, name: "Not a size id" }, { size_id: small, name: "Small" }],
        price_lists: [{ name: "L", rows: [{ size_id: large }] }]
      }
      const expected = [
        ["/price_lists/0/rows/0/size_id", "unknown_id"],
        ["/sizes/0/size_id", "unknown_id"]
      ]
      const pointers = (res: TestResponse) => res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])
      for (const res of [
        await put(seed.key, id, body),
        await patch(seed.key, id, body),
        await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, { key: seed.key, body })
      ]) {
        expectProblem(res, 422, "validation_failed")
        expect(pointers(res)).toEqual(expected)
      }
      const created = await app.operator("POST", `/stores/${seed.storeId}/customisers`, {
        name: "N",
        product_family: "neon",
        selection_mode: "single_style",
        pricing_model: "simple_letter",
        pricing: { sizes: [{ size_id: small, name: "Small" }] }
      })
      expectProblem(created, 422, "validation_failed")
      expect(pointers(created)).toEqual([["/pricing/sizes/0/size_id", "unknown_id"]])
      expect(await read(seed.key, id)).toEqual(before)
    })

    it("concurrent writes never hand out the same id twice", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const writes = await Promise.all(
        Array.from({ length: 6 }, (_, index) => put(seed.key, id, { sizes: [{ name: `S${index}` }], price_lists: [{ name: "L", rows: [] }] }))
      )
      expect(writes.map((res) => res.status)).toEqual(writes.map(() => 200))
      const handedOut = writes.flatMap((res) => idsOf(res.body.data))
      expect(new Set(handedOut).size).toBe(handedOut.length)
    })

    it("answers invalid_pricing_model for letter price lists on a frame-fit customiser", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing_model: "frame_fit" })
      const res = await put(seed.key, id, { price_lists: [{ name: "L", letter_pricing_method: "fixed_letter", rows: [] }] })
      expectProblem(res, 422, "invalid_pricing_model")
      expect(res.body.errors[0].pointer).toBe("/price_lists/0/letter_pricing_method")
    })

    it("refuses every write to a legacy_fixed_height customiser, which stays readable", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing_model: "legacy_fixed_height" })
      expect((await read(seed.key, id)).pricing_model).toBe("legacy_fixed_height")
      expectProblem(await put(seed.key, id, { sizes: [] }), 422, "invalid_pricing_model")
      expectProblem(await patch(seed.key, id, { sizes: [] }), 422, "invalid_pricing_model")
    })

    it("PATCH merges: omitted unchanged, null removes, arrays replaced whole", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const res = await patch(seed.key, id, {
        sheet_pricing: null,
        sizes: [{ name: "Only", sizing_strategy: "fixed_width" }],
        base_pricing: { mode: "included_in_price_lists" }
      })
      expect(res.status).toBe(200)
      const after = await read(seed.key, id)
      expect(after).toEqual(res.body.data)
      expect(after.sizes).toEqual([{ size_id: expect.any(Number), name: "Only", sizing_strategy: "fixed_width" }])
      expect(after.price_lists).toEqual(withIdsOf(simpleLetterContent(), after).price_lists)
      expect(after.base_pricing).toEqual(simpleLetterContent().base_pricing)
      expect(after).not.toHaveProperty("sheet_pricing")
    })

    it("PATCH validates the patched document as a whole", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const res = await patch(seed.key, id, { sizes: [{ name: "X", line_limit: 0 }], currency: "JPY" })
      expectProblem(res, 422, "validation_failed")
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/currency", "/sizes/0/line_limit"])
    })

    it("PUT and PATCH need Idempotency-Key and pricing:write", async () => {
      const seed = await app.seedStore({ scopes: ["pricing:read"] })
      const { id } = await createCustomiser(seed.storeId)
      expectProblem(await put(seed.key, id, {}), 403, "insufficient_scope")
      const writer = await app.seedStore({ scopes: ["pricing:write"] })
      const own = await createCustomiser(writer.storeId)
      for (const method of ["PUT", "PATCH"]) {
        const res = await app.call(method, `/api/v3/customisers/${own.id}/pricing`, { key: writer.key, body: {} })
        expectProblem(res, 400, "idempotency_key_required")
      }
    })

    it("replays a repeated write with Idempotency-Replay and refuses the key with another body", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const first = await put(seed.key, id, simpleLetterContent(), "key-1")
      expect(first.status).toBe(200)
      expect(first.headers.get("idempotency-replay")).toBeNull()

      // A later write through another key changes the document; the replay still answers the first result.
      await put(seed.key, id, { sizes: [] }, "key-2")
      const replay = await put(seed.key, id, simpleLetterContent(), "key-1")
      expect(replay.status).toBe(200)
      expect(replay.headers.get("idempotency-replay")).toBe("true")
      expect(replay.body).toEqual(first.body)
      expect((await read(seed.key, id)).sizes).toEqual([])

      const conflict = await put(seed.key, id, { sizes: [] }, "key-1")
      expectProblem(conflict, 409, "idempotency_key_conflict")

      // Keys belong to a Store: another Store may use the same key freely.
      const other = await app.seedStore({ scopes: ALL_READS })
      const theirs = await createCustomiser(other.storeId)
      expect((await put(other.key, theirs.id, { sizes: [] }, "key-1")).headers.get("idempotency-replay")).toBeNull()
    })

    it("answers 409 idempotency_key_in_flight with retry_after while the first PUT or PATCH with the key runs", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const body = simpleLetterContent()
      for (const method of ["PUT", "PATCH"]) {
        const key = `running-${method}`
        // The first request with this key is still running: claimed, not completed.
        await app.run(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`
            INSERT INTO idempotency_keys (store_id, idempotency_key, method, path, fingerprint, state, locked_until, expires_at)
            VALUES (${seed.storeId}, ${key}, ${method}, ${`/api/v3/customisers/${id}/pricing`},
              ${canonicalFingerprint(new TextEncoder().encode(JSON.stringify(body)))}, 'in_flight',
              now() + interval '30 seconds', now() + interval '1 day')`
        }))
        const res = await app.call(method, `/api/v3/customisers/${id}/pricing`, { key: seed.key, body, headers: { "idempotency-key": key } })
        expectProblem(res, 409, "idempotency_key_in_flight")
        expect(res.body.retry_after).toBeGreaterThanOrEqual(1)
        expect(res.headers.get("retry-after")).toBe(String(res.body.retry_after))
      }
      expect((await read(seed.key, id)).sizes).toEqual([])
    })

    it("a refused write does not burn its key: the corrected body may follow with a new key", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      expectProblem(await put(seed.key, id, { sizes: [{}] }, "bad-1"), 422, "validation_failed")
      expectProblem(await put(seed.key, id, { sizes: [{}] }, "bad-1"), 422, "validation_failed")
      expect((await put(seed.key, id, { sizes: [] }, "good-1")).status).toBe(200)
    })

    it("validate answers like a write, persists nothing and consumes no idempotency key", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const before = await read(seed.key, id)
      const ok = await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, {
        key: seed.key,
        body: simpleLetterContent(),
        headers: { "idempotency-key": "shared" }
      })
      expect(ok.status).toBe(200)
      expect(ok.body.data).toMatchObject({ object: "pricing_validation", valid: true })
      expect(ok.body.data.pricing).toMatchObject({ customiser_id: id, ...simpleLetterContent() })
      expect(await read(seed.key, id)).toEqual(before)

      const bad = await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, {
        key: seed.key,
        body: { sizes: [{ line_limit: 0 }] }
      })
      expectProblem(bad, 422, "validation_failed")
      const viaPut = await put(seed.key, id, { sizes: [{ line_limit: 0 }] })
      expect(viaPut.body.errors).toEqual(bad.body.errors)

      // The key the validation carried is still free for a real write, and the validation drew no
      // ids: the write gives the ones the validation showed.
      const write = await put(seed.key, id, simpleLetterContent(), "shared")
      expect(write.headers.get("idempotency-replay")).toBeNull()
      expect(idsOf(write.body.data)).toEqual(idsOf(ok.body.data.pricing))
      expect((await read(seed.key, id)).sizes).toHaveLength(2)
    })

    it("validate accepts either pricing scope", async () => {
      for (const scope of ["pricing:read", "pricing:write"]) {
        const seed = await app.seedStore({ scopes: [scope] })
        const { id } = await createCustomiser(seed.storeId)
        const res = await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, { key: seed.key, body: {} })
        expect(res.status).toBe(200)
      }
      const none = await app.seedStore({ scopes: ["store:read"] })
      const { id } = await createCustomiser(none.storeId)
      const res = await app.call("POST", `/api/v3/customisers/${id}/pricing/validate`, { key: none.key, body: {} })
      expectProblem(res, 403, "insufficient_scope")
      expect(res.body.required_scopes).toEqual(["pricing:read", "pricing:write"])
    })

    it("answers 400 for malformed JSON and 404 for another Store's customiser", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const other = await app.seedStore({ scopes: ALL_READS })
      const theirs = await createCustomiser(other.storeId)
      const { id } = await createCustomiser(seed.storeId)
      expectProblem(await put(seed.key, id, "{not json"), 400, "malformed_request")
      expectProblem(await put(seed.key, theirs.id, simpleLetterContent()), 404, "not_found")
      expectProblem(await patch(seed.key, theirs.id, {}), 404, "not_found")
      expect((await read(other.key, theirs.id)).sizes).toEqual([])
    })

    it("a reader never sees half a document while writes replace it", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId)
      const a = simpleLetterContent()
      const b = { sizes: [{ name: "Tiny", line_limit: 1 }], price_lists: [], base_pricing: { mode: "included_in_price_lists", rows: [] } }
      // Each write of a or b gives its sizes and price lists new ids: compare what was written.
      const withoutId = ({ size_id: _s, price_list_id: _p, ...rest }: Record<string, unknown>) => rest
      const contentOf = ({ object: _o, pricing_model: _m, pricing_model_display_name: _n, currency: _c, customiser_id: _i, sizes, price_lists, ...rest }: Record<string, unknown>) => ({
        ...(Array.isArray(sizes) ? { sizes: sizes.map(withoutId) } : {}),
        ...rest,
        ...(Array.isArray(price_lists) ? { price_lists: price_lists.map(withoutId) } : {})
      })
      const writes = Array.from({ length: 8 }, (_, i) => put(seed.key, id, i % 2 === 0 ? a : b))
      const reads = Array.from({ length: 16 }, () => read(seed.key, id))
      const [written, seen] = await Promise.all([Promise.all(writes), Promise.all(reads)])
      expect(written.every((r) => r.status === 200)).toBe(true)
      const empty = { sizes: [], base_pricing: { mode: "included_in_price_lists", rows: [] }, price_lists: [], sheet_pricing: null }
      for (const document of seen) expect([a, b, empty]).toContainEqual(contentOf(document))
    })

    it("concurrent PATCHes never lose each other's changes", async () => {
      const seed = await app.seedStore({ scopes: ALL_READS })
      const { id } = await createCustomiser(seed.storeId, { pricing: simpleLetterContent() })
      const results = await Promise.all([
        patch(seed.key, id, { sheet_pricing: null }),
        patch(seed.key, id, { price_lists: [] })
      ])
      expect(results.map((r) => r.status)).toEqual([200, 200])
      const after = await read(seed.key, id)
      expect(after.price_lists).toEqual([])
      expect(after).not.toHaveProperty("sheet_pricing")
    })
  })
})
