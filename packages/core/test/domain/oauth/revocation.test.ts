import { describe, expect, it } from "vitest"
import { decideConnectionRevocation, decideTokenRevocation } from "../../../src/domain/oauth/index.js"

describe("decideTokenRevocation", () => {
  it("revokes the grant of a token issued to the calling client", () => {
    expect(decideTokenRevocation("sc_client_a", { grantId: 7, clientId: "sc_client_a" })).toMatchObject({
      _tag: "Revoke",
      grantId: 7
    })
  })

  it("ignores unknown tokens and other clients' tokens (RFC 7009 §2.2)", () => {
    expect(decideTokenRevocation("sc_client_a", undefined)._tag).toBe("Ignore")
    expect(decideTokenRevocation("sc_client_a", { grantId: 7, clientId: "sc_client_b" })._tag).toBe("Ignore")
  })
})

describe("decideConnectionRevocation", () => {
  it("revokes a live connection only", () => {
    expect(decideConnectionRevocation({ id: 7, revokedAt: null })).toMatchObject({ _tag: "Revoke", grantId: 7 })
    expect(decideConnectionRevocation({ id: 7, revokedAt: new Date() })._tag).toBe("Ignore")
    expect(decideConnectionRevocation(undefined)._tag).toBe("Ignore")
  })
})
