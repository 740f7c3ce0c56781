import { describe, expect, it } from "vitest"
import type { FuzzEntry, Prepared } from "./catalogue.js"
import { mutationFault } from "./runner.js"
import type { ErrorFormat } from "./shapes.js"

const entryAt = (path: string, format: ErrorFormat = "problem"): FuzzEntry => ({
  endpoint: `POST ${path}`,
  name: `POST ${path}`,
  format,
  encoding: "json",
  contentType: "application/json",
  path,
  method: "POST",
  success: 201,
  prepare: async () => prepared
})
const prepared: Prepared = { params: {}, body: { name: "Neon", price: 100, address: { city: "Bonn" } }, headers: {} }
const problem = (status: number, pointers: ReadonlyArray<string>) => ({
  status,
  contentType: "application/problem+json",
  text: JSON.stringify({
    type: "t", title: "T", status, code: "validation_failed", detail: "d", request_id: "r",
    errors: pointers.map((pointer) => ({ pointer, code: "invalid", detail: "d" }))
  })
})
const plainProblem = (status: number, code: string) => ({
  status,
  contentType: "application/problem+json",
  text: JSON.stringify({ type: "t", title: "T", status, code, detail: "d", request_id: "r" })
})
const created = { status: 201, contentType: "application/json", text: "{}" }

describe("the properties a fuzzed answer must keep", () => {
  const v3 = entryAt("/api/v3/orders")
  const nul = { kind: "replace", path: ["address", "city"], value: JSON.stringify("a\u0000") } as const

  it("wants NUL and overflowing numbers refused, naming the field", () => {
    expect(mutationFault(v3, prepared, nul, created)).toMatch(/accepted a string/)
    expect(mutationFault(v3, prepared, nul, problem(422, ["/address/city"]))).toBeUndefined()
    expect(mutationFault(v3, prepared, nul, problem(422, ["/address"]))).toBeUndefined()
    expect(mutationFault(v3, prepared, nul, problem(422, [""]))).toMatch(/without naming \/address\/city/)
    const overflow = { kind: "replace", path: ["price"], value: "1e400" } as const
    expect(mutationFault(v3, prepared, overflow, created)).toMatch(/overflowing number/)
    expect(mutationFault(v3, prepared, overflow, problem(422, ["/name"]))).toMatch(/without naming \/price/)
    // A number where a string was is a plain type fault, and any refusal will do.
    expect(mutationFault(v3, prepared, { kind: "replace", path: ["name"], value: "1e400" }, problem(422, [""]))).toBeUndefined()
  })

  it("wants every body over the limit answered 413, whichever way it travels", () => {
    for (const transport of ["sized", "chunked"] as const) {
      const over = { kind: "oversize", size: "over_limit", transport } as const
      expect(mutationFault(v3, prepared, over, plainProblem(413, "payload_too_large"))).toBeUndefined()
      expect(mutationFault(v3, prepared, over, plainProblem(400, "malformed_request"))).toMatch(/not 413/)
    }
    expect(mutationFault(v3, prepared, { kind: "oversize", size: "near_limit", transport: "sized" }, plainProblem(400, "malformed_request"))).toBeUndefined()
  })

  it("reads the legacy format's dotted keys as the fields it names", () => {
    const legacy = entryAt("/api/orders", "legacy")
    const answer = (errors: Record<string, Array<string>>) => ({ status: 422, contentType: "application/json", text: JSON.stringify({ message: "m", errors }) })
    expect(mutationFault(legacy, prepared, nul, answer({ "address.city": ["bad"] }))).toBeUndefined()
    expect(mutationFault(legacy, prepared, nul, answer({ request: ["bad"] }))).toMatch(/without naming/)
  })

  it("reads an OAuth refusal's description as naming the field", () => {
    const oauth = entryAt("/oauth/register", "oauth")
    const refusal = (description: string) => ({ status: 400, contentType: "application/json", text: JSON.stringify({ error: "invalid_client_metadata", error_description: description }) })
    expect(mutationFault(oauth, prepared, nul, refusal("city must not hold NUL"))).toBeUndefined()
    expect(mutationFault(oauth, prepared, nul, refusal("bad metadata"))).toMatch(/without naming/)
  })

  it("wants unknown members of v3 and operator bodies refused with a 422 naming them, not of other bodies", () => {
    const unknown = { kind: "add_member", path: ["address"], name: "zz", value: "1" } as const
    expect(mutationFault(v3, prepared, unknown, created)).toMatch(/unknown member "\/address\/zz"/)
    expect(mutationFault(v3, prepared, unknown, problem(422, ["/address/zz"]))).toBeUndefined()
    expect(mutationFault(v3, prepared, unknown, problem(422, ["/address"]))).toMatch(/unknown member/)
    expect(mutationFault(entryAt("/operator/v1/stores"), prepared, unknown, created)).toMatch(/unknown member/)
    // A member valued NaN makes the body unreadable: a 400 is right.
    expect(mutationFault(v3, prepared, { ...unknown, value: "NaN" }, plainProblem(400, "malformed_request"))).toBeUndefined()
    expect(mutationFault(entryAt("/storefront/v1/customisers/{id}/designs"), prepared, unknown, created)).toBeUndefined()
    expect(mutationFault(entryAt("/api/orders", "legacy"), prepared, unknown, created)).toBeUndefined()
  })
})
