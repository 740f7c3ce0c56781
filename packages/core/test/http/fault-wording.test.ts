import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { orders } from "../../src/domain.js"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"

type App = TestApp
type Fault = { readonly pointer?: string; readonly code: string; readonly detail: string }

// One walker words every schema fault (domain/input/schema-issues.ts): the same fault must read the
// same in v3 problems, the v2 and unversioned `errors` maps, the migration CLI's decoder and the
// operator API, so a client moving between generations never meets two wordings of one rule.
describe.each(databaseVariants())("one wording for one fault, in every generation ($name database)", (variant) => {
  let db: TestDatabase
  let app: App
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const problemFault = (body: { errors: ReadonlyArray<Fault> }, pointer: string): Fault | undefined =>
    body.errors.find((fault) => fault.pointer === pointer)
  const cliFaults = (input: unknown): ReadonlyArray<Fault> => {
    const result = orders.decodeRequest(orders.V2OrderRequest)(input)
    return result._tag === "Failure" ? result.failure : []
  }

  it("words a missing member and a member of the wrong type alike in v3, v2, unversioned and the migration CLI", async () => {
    const s = await app.seedStore("wildcard")
    const v3 = await app.call("POST", "/api/v3/orders", { key: s.key, body: { currency: 5 } })
    const v2 = await app.call("POST", "/api/v2/orders", { key: s.key, body: { currency: 5 } })
    const unversioned = await app.call("POST", "/api/orders", { key: s.key, body: { order_currency: 5 } })
    const cli = cliFaults({ currency: 5 })

    const codeAndDetail = (fault: Fault | undefined) => ({ code: fault?.code, detail: fault?.detail })
    const required = [
      codeAndDetail(problemFault(v3.body, "/integration_id")),
      ...v2.body.errors.integration_id.map((detail: string) => ({ code: "required", detail })),
      ...unversioned.body.errors.order_id.map((detail: string) => ({ code: "required", detail })),
      codeAndDetail(cli.find((fault) => fault.pointer === "/integration_id"))
    ]
    expect(required).toEqual(Array(4).fill({ code: "required", detail: "This field is required." }))

    // The v2 order's currency is nullable, so its expectation names null too; the words are the same rule's.
    expect(problemFault(v3.body, "/currency")).toEqual({ pointer: "/currency", code: "invalid_type", detail: "Must be a string." })
    expect(unversioned.body.errors.order_currency).toEqual(["Must be a string."])
    expect(v2.body.errors.currency).toEqual(["Must be a string or null."])
    expect(cli.find((fault) => fault.pointer === "/currency")).toEqual({ pointer: "/currency", code: "invalid_type", detail: "Must be a string or null." })
  })

  it("refuses an undefined member with one code and one wording in orders, pricing and the operator API", async () => {
    const s = await app.seedStore("wildcard")
    const customiserId = await app.seedCustomiser(s.storeId)
    const order = await app.call("POST", "/api/v3/orders", { key: s.key, body: { colour: 1 } })
    const pricing = await app.call("POST", `/api/v3/customisers/${customiserId}/pricing/validate`, { key: s.key, body: { colour: 1 } })
    const operator = await app.operator("POST", "/companies", { name: "Acme", colour: 1 })
    const expected = { pointer: "/colour", code: "unknown_field", detail: "This member is not defined by the contract; check its spelling." }
    expect(problemFault(order.body, "/colour")).toEqual(expected)
    expect(problemFault(pricing.body, "/colour")).toEqual(expected)
    expect(problemFault(operator.body, "/colour")).toEqual(expected)
  })
})
