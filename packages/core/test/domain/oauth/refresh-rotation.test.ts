import { describe, expect, it } from "vitest"
import { decideRefresh, type GrantRecord, type RefreshState, type RefreshTokenRecord } from "../../../src/domain/oauth/index.js"

const agentResource = "https://mcp.example.com/mcp"
const now = new Date("2026-01-01T12:00:00Z")

const grant: GrantRecord = {
  id: 7,
  clientId: "sc_client_a",
  personId: 3,
  storeId: 5,
  scopes: ["store:read", "orders:write"],
  resource: agentResource,
  revokedAt: null
}

const token: RefreshTokenRecord = {
  id: 11,
  grantId: 7,
  clientId: "sc_client_a",
  expiresAt: new Date(now.getTime() + 60_000),
  rotatedAt: null,
  revokedAt: null
}

const state = (changes: Partial<RefreshState> = {}): RefreshState => ({
  token,
  grant,
  clientMayRefresh: true,
  member: true,
  request: { clientId: "sc_client_a", scope: undefined, resources: [] },
  agentResource,
  now,
  ...changes
})

const request = (changes: Partial<RefreshState["request"]>) => ({ ...state().request, ...changes })

describe("decideRefresh", () => {
  it("rotates a live token with the granted scopes", () => {
    expect(decideRefresh(state())).toMatchObject({ _tag: "Rotate", tokenId: 11, grant, scopes: grant.scopes })
  })

  it("may narrow the scopes, never widen them or name unknown ones", () => {
    expect(decideRefresh(state({ request: request({ scope: "store:read" }) }))).toMatchObject({ scopes: ["store:read"] })
    expect(decideRefresh(state({ request: request({ scope: "webhooks:write" }) }))).toMatchObject({
      _tag: "Refuse",
      error: { error: "invalid_scope" }
    })
    expect(decideRefresh(state({ request: request({ scope: "everything" }) }))).toMatchObject({
      error: { error: "invalid_scope" }
    })
  })

  it("treats a rotated token as stolen: the whole grant is revoked", () => {
    expect(decideRefresh(state({ token: { ...token, rotatedAt: now } }))).toMatchObject({
      _tag: "ReuseDetected",
      grantId: 7,
      error: { error: "invalid_grant" }
    })
  })

  it("does not let another client's presentation of a rotated token revoke the grant", () => {
    expect(decideRefresh(state({ token: { ...token, rotatedAt: now }, request: request({ clientId: "sc_client_b" }) })))
      .toMatchObject({ _tag: "Refuse", error: { error: "invalid_grant" } })
  })

  it.each<[string, Partial<RefreshState>, string]>([
    ["an unknown token", { token: undefined }, "invalid_grant"],
    ["another client's token", { request: request({ clientId: "sc_client_b" }) }, "invalid_grant"],
    ["a revoked token", { token: { ...token, revokedAt: now } }, "invalid_grant"],
    ["an expired token", { token: { ...token, expiresAt: now } }, "invalid_grant"],
    ["a revoked grant", { grant: { ...grant, revokedAt: now } }, "invalid_grant"],
    ["a client that did not register refresh_token", { clientMayRefresh: false }, "unauthorized_client"],
    ["another resource", { request: request({ resources: ["https://other.example.com/mcp"] }) }, "invalid_target"],
    ["a grant bound to another resource", { grant: { ...grant, resource: "https://old.example.com/mcp" } }, "invalid_grant"],
    ["an approver who left the company", { member: false }, "invalid_grant"]
  ])("refuses %s without changing anything", (_, changes, error) => {
    expect(decideRefresh(state(changes))).toMatchObject({ _tag: "Refuse", error: { error } })
  })
})
