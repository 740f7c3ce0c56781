import { describe, expect, it } from "vitest"
import {
  type CodeExchangeState,
  type CodeRecord,
  decideCodeExchange,
  type GrantRecord,
  s256
} from "../../../src/domain/oauth/index.js"

const agentResource = "https://mcp.example.com/mcp"
const now = new Date("2026-01-01T12:00:00Z")
const verifier = "v".repeat(43)

const grant: GrantRecord = {
  id: 7,
  clientId: "sc_client_a",
  personId: 3,
  storeId: 5,
  scopes: ["store:read"],
  resource: agentResource,
  revokedAt: null
}

const code: CodeRecord = {
  grantId: 7,
  clientId: "sc_client_a",
  redirectUri: "https://agent.example.com/cb",
  redirectUriGiven: true,
  codeChallenge: s256(verifier),
  expiresAt: new Date(now.getTime() + 60_000),
  consumedAt: null,
  outcome: null
}

const state = (changes: Partial<CodeExchangeState> = {}): CodeExchangeState => ({
  code,
  grant,
  member: true,
  request: { clientId: "sc_client_a", codeVerifier: verifier, redirectUri: code.redirectUri, resources: [] },
  agentResource,
  now,
  ...changes
})

const request = (changes: Partial<CodeExchangeState["request"]>) => ({ ...state().request, ...changes })

describe("decideCodeExchange", () => {
  it("exchanges a live, unconsumed code presented with its verifier, client, redirect URI and resource", () => {
    expect(decideCodeExchange(state())).toMatchObject({ _tag: "Exchange", grant })
    expect(decideCodeExchange(state({ request: request({ resources: [agentResource] }) }))._tag).toBe("Exchange")
  })

  it("accepts an omitted redirect_uri only when the authorization request omitted it too", () => {
    expect(decideCodeExchange(state({ code: { ...code, redirectUriGiven: false }, request: request({ redirectUri: undefined }) }))._tag)
      .toBe("Exchange")
    expect(decideCodeExchange(state({ request: request({ redirectUri: undefined }) }))._tag).toBe("Refuse")
  })

  it("answers an unknown code with invalid_grant and changes nothing", () => {
    const outcome = decideCodeExchange(state({ code: undefined }))
    expect(outcome).toMatchObject({ _tag: "Unknown", error: { error: "invalid_grant" } })
  })

  it("is single use: a consumed code is refused, and a replay of an exchanged one revokes its grant", () => {
    const consumed = { ...code, consumedAt: now }
    expect(decideCodeExchange(state({ code: { ...consumed, outcome: "revoked" } }))._tag).toBe("Unknown")
    expect(decideCodeExchange(state({ code: { ...consumed, outcome: "exchanged" } }))).toMatchObject({
      _tag: "Replay",
      grantId: 7,
      error: { error: "invalid_grant" }
    })
  })

  it.each<[string, Partial<CodeExchangeState>, string]>([
    ["another client", { request: request({ clientId: "sc_client_b" }) }, "invalid_grant"],
    ["an expired code", { code: { ...code, expiresAt: now } }, "invalid_grant"],
    ["another redirect URI", { request: request({ redirectUri: "https://agent.example.com/other" }) }, "invalid_grant"],
    ["a missing verifier", { request: request({ codeVerifier: undefined }) }, "invalid_grant"],
    ["a wrong verifier", { request: request({ codeVerifier: "w".repeat(43) }) }, "invalid_grant"],
    ["another resource", { request: request({ resources: ["https://other.example.com/mcp"] }) }, "invalid_target"],
    ["a revoked grant", { grant: { ...grant, revokedAt: now } }, "invalid_grant"],
    ["a missing grant", { grant: undefined }, "invalid_grant"],
    ["an approver who left the company", { member: false }, "invalid_grant"]
  ])("refuses %s and spends the code", (_, changes, error) => {
    expect(decideCodeExchange(state(changes))).toMatchObject({ _tag: "Refuse", error: { error } })
  })
})
