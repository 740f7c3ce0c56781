import { afterAll, describe, expect, it } from "vitest"
import { createCustomiser, startApp } from "../support/app.js"

// Issue 11: anonymous storefront writes are stored and fan out, so their size and their number
// per Store are capped, not only their number per address.
describe("storefront limits", () => {
  const app = startApp({ _tag: "Embedded", location: "memory" }, { storefrontWritesPerStorePerMinute: 3, rateLimitPerIpPerMinute: 10_000 })
  afterAll(() => app.dispose())

  const response = (value = "yes") => ({ field_id: "f1", name: "Question", input_type: "text", value })
  const submit = (customiserId: number, responses: ReadonlyArray<unknown>) =>
    app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { responses } })

  it("refuses oversized form submissions with a 422 naming the field", async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    const tooMany = await submit(customiser.id, Array.from({ length: 101 }, () => response()))
    expect(tooMany.status).toBe(422)
    expect(tooMany.body.errors[0].pointer).toBe("/responses")
    const tooLong = await submit(customiser.id, [response("x".repeat(10_001))])
    expect(tooLong.status).toBe(422)
    expect(tooLong.body.errors[0].pointer).toBe("/responses/0/value")
    const design = await app.call("POST", `/storefront/v1/customisers/${customiser.id}/designs`, {
      body: { integration_id: 1, title: "t".repeat(501), price: 100 }
    })
    expect(design.status).toBe(422)
    expect(design.body.errors.map((e: { pointer: string }) => e.pointer)).toContain("/title")
  })

  it("holds each Store to its storefront quota whatever the addresses, and leaves other Stores alone", async () => {
    const { storeId } = await app.seedStore()
    const customiser = await createCustomiser(app, storeId)
    for (let i = 0; i < 3; i++) expect((await submit(customiser.id, [response()])).status).toBe(201)
    const held = await submit(customiser.id, [response()])
    expect(held.status).toBe(429)
    expect(held.body.code).toBe("rate_limited")
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0)
    const other = await app.seedStore()
    const otherCustomiser = await createCustomiser(app, other.storeId)
    expect((await submit(otherCustomiser.id, [response()])).status).toBe(201)
  })
})
