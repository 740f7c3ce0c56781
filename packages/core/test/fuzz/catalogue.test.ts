import { describe, expect, it } from "vitest"
import { FUZZ_ENTRIES } from "./catalogue.js"
import { agentToolEndpoints, apiWriteEndpoints, oauthWriteEndpoints } from "./write-endpoints.js"

describe("the fuzz catalogue", () => {
  const fuzzed = new Set(FUZZ_ENTRIES.map((entry) => entry.endpoint))
  const writes = [...apiWriteEndpoints(), ...oauthWriteEndpoints(), ...agentToolEndpoints()]

  it("finds the writes of every generation, the OAuth forms and the agent tools", () => {
    expect(apiWriteEndpoints()).toEqual(expect.arrayContaining(["PUT /api/v3/customisers/{customiser_id}/pricing", "POST /api/v2/orders", "POST /operator/v1/companies"]))
    expect(oauthWriteEndpoints()).toEqual(expect.arrayContaining(["POST /oauth/register", "POST /oauth/token", "POST /oauth/revoke", "POST /oauth/authorize"]))
    expect(agentToolEndpoints()).toContain("tool replace_pricing")
  })

  it("has an entry for every write endpoint of the API definition, the OAuth routes and the agent tools", () => {
    expect(writes.filter((write) => !fuzzed.has(write))).toEqual([])
  })

  it("names no endpoint the code does not define, and each entry once", () => {
    expect([...fuzzed].filter((endpoint) => !writes.includes(endpoint))).toEqual([])
    const names = FUZZ_ENTRIES.map((entry) => entry.name)
    expect(new Set(names).size).toBe(names.length)
  })
})
