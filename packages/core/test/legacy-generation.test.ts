import { describe, expect, it } from "vitest"
import { SigncraftApi } from "../src/http/api/index.js"
import { operationName } from "../src/http/api/legacy-generation.js"
import { deprecatedOperations, generationOf, legacyPrefixes } from "../src/http/generations.js"

describe("the previous generation, read from the API definition", () => {
  it("counts every legacy endpoint under its method and path", () => {
    expect([...deprecatedOperations(SigncraftApi)].sort()).toEqual([
      "DELETE /api/v2/webhooks/{webhook_id}",
      "GET /api/v2/customisers",
      "GET /api/v2/customisers/{customiser}",
      "GET /api/v2/customisers/{customiser}/pricing",
      "GET /api/v2/webhook-examples/{topic}",
      "GET /api/v2/webhooks",
      "GET /api/v2/webhooks/{webhook_id}",
      "POST /api/customisers/{customiser}/products",
      "POST /api/orders",
      "POST /api/v2/orders",
      "POST /api/v2/webhooks",
      "PUT /api/v2/customisers/{customiser}/pricing",
      "PUT /api/v2/webhooks/{webhook_id}"
    ])
  })

  it("names an operation with its path parameters in braces", () => {
    expect(operationName("GET", "/api/v2/webhooks/:webhook_id")).toBe("GET /api/v2/webhooks/{webhook_id}")
  })

  it("owns the path prefixes of its groups", () => {
    expect([...legacyPrefixes(SigncraftApi)].sort()).toEqual(["/api/customisers/", "/api/orders", "/api/v2/"])
  })

  it("decides the generation of a path, routed or not", () => {
    expect(generationOf("/api/v2/customisers")).toBe("legacy")
    expect(generationOf("/api/v2/no-such-thing")).toBe("legacy")
    expect(generationOf("/api/orders")).toBe("legacy")
    expect(generationOf("/api/customisers/7/products")).toBe("legacy")
    expect(generationOf("/api/v3/customisers")).toBe("v3")
    expect(generationOf("/api/v3")).toBe("v3")
    expect(generationOf("/operator/companies")).toBe("operator")
    expect(generationOf("/storefront/forms/1")).toBe("storefront")
    expect(generationOf("/oauth/token")).toBe("oauth")
    expect(generationOf("/mcp", "/mcp")).toBe("agent")
    expect(generationOf("/health")).toBe("system")
  })
})
