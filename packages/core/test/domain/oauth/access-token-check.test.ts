import { describe, expect, it } from "vitest"
import { type AccessTokenRecord, checkAccessToken } from "../../../src/domain/oauth/index.js"

const resource = "https://mcp.example.com/mcp"
const now = new Date("2026-01-01T12:00:00Z")

const token: AccessTokenRecord = {
  grantId: 7,
  clientId: "sc_client_a",
  personId: 3,
  storeId: 5,
  scopes: ["store:read"],
  resource,
  expiresAt: new Date(now.getTime() + 60_000),
  revokedAt: null,
  grantRevokedAt: null,
  member: true
}

describe("checkAccessToken", () => {
  it("accepts a live token bound (stored and aud) to the requested resource, in canonical form", () => {
    expect(checkAccessToken(token, resource, resource, now)).toMatchObject({ _tag: "Accepted", token })
    expect(checkAccessToken(token, "HTTPS://MCP.example.com:443/mcp", resource, now)._tag).toBe("Accepted")
  })

  it.each<[string, AccessTokenRecord | undefined, string, string]>([
    ["an unknown token", undefined, resource, "The access token is unknown."],
    ["a revoked token", { ...token, revokedAt: now }, resource, "The access token was revoked."],
    ["a token of a revoked grant", { ...token, grantRevokedAt: now }, resource, "The access token was revoked."],
    ["a token past its stored expiry", { ...token, expiresAt: now }, resource, "The access token has expired."],
    [
      "a token stored for another resource",
      { ...token, resource: "https://other.example.com/mcp" },
      resource,
      "The access token is bound to another resource."
    ],
    ["a token whose aud names another resource", token, "https://other.example.com/mcp", "The access token is bound to another resource."],
    [
      "a token whose approver left the company",
      { ...token, member: false },
      resource,
      "The approving person no longer belongs to the Store's company."
    ]
  ])("rejects %s", (_, record, audience, description) => {
    expect(checkAccessToken(record, audience, resource, now)).toMatchObject({ _tag: "Rejected", description })
  })
})
