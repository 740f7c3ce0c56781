import { describe, expect, it } from "vitest"
import {
  agentLocation,
  authorizationServerMetadata,
  canonicalResource,
  checkAuthorizationRequest,
  checkRedirectUri,
  checkRegistration,
  checkResource,
  isCodeVerifier,
  parseScopeParam,
  protectedResourceMetadata,
  redirectWith,
  s256,
  verifyS256,
  wellKnownPaths
} from "../../src/domain/oauth/index.js"
import { SCOPES } from "../../src/domain/credentials/scopes.js"

describe("checkRedirectUri", () => {
  it.each([
    ["https://agent.example.com/callback"],
    ["https://agent.example.com:8443/cb?x=1"],
    ["http://127.0.0.1:7777/callback"],
    ["http://127.1.2.3/callback"],
    ["http://localhost:33418/oauth/callback"],
    ["http://[::1]:8080/cb"]
  ])("accepts %s", (uri) => {
    expect(checkRedirectUri(uri)).toEqual({ _tag: "Accepted" })
  })

  it.each([
    ["http://agent.example.com/callback", "not_loopback_http"],
    ["http://127.0.0.1.example.com/cb", "not_loopback_http"],
    ["http://192.168.1.10/cb", "not_loopback_http"],
    ["https://agent.example.com/cb#frag", "fragment"],
    ["https://agent.example.com/cb#", "fragment"],
    ["https://user:pass@agent.example.com/cb", "credentials"],
    ["https://user@agent.example.com/cb", "credentials"],
    ["https://@agent.example.com/cb", "credentials"],
    ["https://*.example.com/cb", "wildcard"],
    ["https://agent.example.com/*", "wildcard"],
    ["myapp://callback", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["ftp://agent.example.com/cb", "scheme"],
    ["/relative/callback", "not_absolute"],
    ["https:agent.example.com/cb", "not_absolute"],
    ["https://agent.example.com/c b", "whitespace"],
    [`https://agent.example.com/${"a".repeat(2001)}`, "too_long"]
  ])("refuses %s (%s)", (uri, fault) => {
    const verdict = checkRedirectUri(uri)
    expect(verdict._tag).toBe("Refused")
    if (verdict._tag === "Refused") expect(verdict.fault).toBe(fault)
  })
})

describe("PKCE S256", () => {
  const verifier = "dBjftJeZ4CVP-mJ92IgKWLHkOjZ5ppS-N4L7dGlmpIEO"
  // Precomputed independently: BASE64URL(SHA-256("dBjftJeZ4CVP-mJ92IgKWLHkOjZ5ppS-N4L7dGlmpIE")).
  const challenge = "u6WPMyYoPh_nU3v9GTelLehUjkZve8wuRoNJF68D9II"

  it("computes BASE64URL(SHA-256(verifier)) as WebCrypto does", async () => {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))
    expect(s256(verifier)).toBe(Buffer.from(digest).toString("base64url"))
    expect(s256("dBjftJeZ4CVP-mJ92IgKWLHkOjZ5ppS-N4L7dGlmpIE")).toBe(challenge)
  })

  it.each([
    ["the matching verifier", "dBjftJeZ4CVP-mJ92IgKWLHkOjZ5ppS-N4L7dGlmpIE", challenge, true],
    ["another verifier", verifier, challenge, false],
    ["the challenge itself (plain)", challenge, challenge, false],
    ["a verifier too short", "abc", s256("abc"), false],
    ["a verifier with a forbidden character", `${"a".repeat(43)}+`, s256(`${"a".repeat(43)}+`), false],
    ["a malformed challenge", "dBjftJeZ4CVP-mJ92IgKWLHkOjZ5ppS-N4L7dGlmpIE", `${challenge}=`, false]
  ])("%s → %s", (_name, v, c, expected) => {
    expect(verifyS256(v, c)).toBe(expected)
  })

  it.each([
    ["a".repeat(42), false],
    ["a".repeat(43), true],
    ["a".repeat(128), true],
    ["a".repeat(129), false],
    [`${"a".repeat(40)}-._~`, true]
  ])("isCodeVerifier(%s) is %s", (value, expected) => {
    expect(isCodeVerifier(value)).toBe(expected)
  })
})

describe("parseScopeParam", () => {
  it.each([
    ["store:read", { _tag: "Scopes", scopes: ["store:read"] }],
    ["store:read  pricing:read store:read", { _tag: "Scopes", scopes: ["store:read", "pricing:read"] }],
    ["", { _tag: "Scopes", scopes: [] }],
    ["store:read *", { _tag: "Unknown", unknown: ["*"] }],
    ["store:write admin", { _tag: "Unknown", unknown: ["store:write", "admin"] }],
    ["STORE:READ", { _tag: "Unknown", unknown: ["STORE:READ"] }]
  ])("%j", (value, expected) => {
    expect(parseScopeParam(value)).toEqual(expected)
  })
})

describe("resource canonicalisation and binding", () => {
  it.each([
    ["http://localhost:8080/mcp", "http://localhost:8080/mcp"],
    ["HTTP://LOCALHOST:8080/mcp", "http://localhost:8080/mcp"],
    ["https://agent.example.com:443/", "https://agent.example.com"],
    ["https://agent.example.com", "https://agent.example.com"],
    ["https://agent.example.com/mcp#x", undefined],
    ["https://agent.example.com/mcp?x=1", undefined],
    ["urn:signcraft:agent", undefined],
    ["not a url", undefined]
  ])("canonicalResource(%s) = %s", (value, expected) => {
    expect(canonicalResource(value)).toBe(expected)
  })

  const agent = "http://localhost:8080/mcp"
  it.each([
    [[], "Agent"],
    [["http://localhost:8080/mcp"], "Agent"],
    [["http://LOCALHOST:8080/mcp"], "Agent"],
    [["http://localhost:8080/mcp/"], "InvalidTarget"],
    [["http://localhost:8080/api/v3"], "InvalidTarget"],
    [["http://localhost:8080"], "InvalidTarget"],
    [["https://localhost:8080/mcp"], "InvalidTarget"],
    [["http://localhost:8080/mcp", "http://localhost:8080/mcp"], "InvalidTarget"]
  ])("checkResource(%j)", (values, expected) => {
    expect(checkResource(values, agent)._tag).toBe(expected)
  })

  it("treats a separate agent origin with or without its trailing slash as one resource", () => {
    expect(checkResource(["http://127.0.0.1:9000/"], "http://127.0.0.1:9000")._tag).toBe("Agent")
    expect(checkResource(["http://127.0.0.1:9000"], "http://127.0.0.1:9000/")._tag).toBe("Agent")
  })
})

describe("metadata", () => {
  it("has exactly the documented authorization-server values", () => {
    const m = authorizationServerMetadata("https://api.example.com")
    expect(m).toMatchObject({
      issuer: "https://api.example.com",
      authorization_endpoint: "https://api.example.com/oauth/authorize",
      token_endpoint: "https://api.example.com/oauth/token",
      registration_endpoint: "https://api.example.com/oauth/register",
      revocation_endpoint: "https://api.example.com/oauth/revoke",
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: false,
      response_types_supported: ["code"]
    })
  })

  it("places the agent endpoint at {base_url}/mcp by default", () => {
    const location = agentLocation("https://api.example.com", undefined)
    expect(location).toEqual({
      resource: "https://api.example.com/mcp",
      origin: "https://api.example.com",
      path: "/mcp",
      metadataUrl: "https://api.example.com/.well-known/oauth-protected-resource/mcp",
      separateOrigin: false
    })
    expect(wellKnownPaths(location)).toEqual({
      protectedResource: ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"],
      authorizationServer: ["/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server/mcp"]
    })
    expect(protectedResourceMetadata("https://api.example.com", location)).toMatchObject({
      resource: "https://api.example.com/mcp",
      authorization_servers: ["https://api.example.com"],
      scopes_supported: [...SCOPES]
    })
  })

  it("places the agent endpoint at the root of MCP_URL's origin when set", () => {
    const location = agentLocation("https://api.example.com", "https://agent.example.com")
    expect(location).toEqual({
      resource: "https://agent.example.com",
      origin: "https://agent.example.com",
      path: "/",
      metadataUrl: "https://agent.example.com/.well-known/oauth-protected-resource",
      separateOrigin: true
    })
    expect(wellKnownPaths(location)).toEqual({
      protectedResource: ["/.well-known/oauth-protected-resource"],
      authorizationServer: ["/.well-known/oauth-authorization-server"]
    })
  })
})

describe("checkRegistration", () => {
  const base = { redirect_uris: ["https://agent.example.com/cb"] }
  it("accepts a minimal public client, defaulting to the authorization_code grant", () => {
    expect(checkRegistration(base)).toEqual({
      _tag: "Valid",
      registration: { redirect_uris: base.redirect_uris, client_name: null, grant_types: ["authorization_code"], scope: null }
    })
  })

  it.each([
    ["a non-object body", [], "invalid_client_metadata"],
    ["no redirect_uris", {}, "invalid_redirect_uri"],
    ["empty redirect_uris", { redirect_uris: [] }, "invalid_redirect_uri"],
    ["an http non-loopback redirect", { redirect_uris: ["http://agent.example.com/cb"] }, "invalid_redirect_uri"],
    ["a confidential client", { ...base, token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
    ["a client secret", { ...base, client_secret: "s" }, "invalid_client_metadata"],
    ["the implicit grant", { ...base, grant_types: ["authorization_code", "implicit"] }, "invalid_client_metadata"],
    ["client credentials", { ...base, grant_types: ["client_credentials"] }, "invalid_client_metadata"],
    ["refresh alone", { ...base, grant_types: ["refresh_token"] }, "invalid_client_metadata"],
    ["response type token", { ...base, response_types: ["code", "token"] }, "invalid_client_metadata"],
    ["an unknown scope", { ...base, scope: "store:read admin" }, "invalid_client_metadata"],
    ["an empty client_name", { ...base, client_name: " " }, "invalid_client_metadata"]
  ])("refuses %s", (_name, body, error) => {
    const verdict = checkRegistration(body)
    expect(verdict._tag).toBe("Invalid")
    if (verdict._tag === "Invalid") expect(verdict.error.error).toBe(error)
  })
})

describe("checkAuthorizationRequest", () => {
  const client = { clientId: "c1", redirectUris: ["https://a.example/cb", "http://127.0.0.1:9/cb"], scope: null }
  const challenge = s256("a".repeat(43))
  const agent = "https://api.example.com/mcp"
  const request = (overrides: Record<string, string | undefined>) => {
    const params = new URLSearchParams()
    const all: Record<string, string | undefined> = {
      response_type: "code",
      client_id: "c1",
      redirect_uri: "https://a.example/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "store:read",
      state: "xyz",
      ...overrides
    }
    for (const [name, value] of Object.entries(all)) if (value !== undefined) params.append(name, value)
    return params
  }

  it("accepts a complete request", () => {
    const verdict = checkAuthorizationRequest(request({}), client, agent)
    expect(verdict).toEqual({
      _tag: "Valid",
      request: {
        clientId: "c1",
        redirectUri: "https://a.example/cb",
        redirectUriGiven: true,
        codeChallenge: challenge,
        scopes: ["store:read"],
        state: "xyz",
        resource: agent
      }
    })
  })

  it.each([
    ["a missing client_id", { client_id: undefined }],
    ["an unknown client", { client_id: "other" }],
    ["an unregistered redirect URI", { redirect_uri: "https://evil.example/cb" }],
    ["a redirect URI differing by a trailing slash", { redirect_uri: "https://a.example/cb/" }],
    ["a redirect URI differing by port", { redirect_uri: "http://127.0.0.1:10/cb" }],
    ["a missing redirect URI with several registered", { redirect_uri: undefined }],
    ["the plain method", { code_challenge_method: "plain" }],
    ["a missing method (defaults to plain)", { code_challenge_method: undefined }],
    ["a missing challenge", { code_challenge: undefined }],
    ["a malformed challenge", { code_challenge: "short" }]
  ])("refuses %s directly, never redirecting", (_name, overrides: Record<string, string | undefined>) => {
    const verdict = checkAuthorizationRequest(request(overrides), overrides.client_id === "other" ? undefined : client, agent)
    expect(verdict._tag).toBe("Direct")
  })

  it.each([
    ["another response type", { response_type: "token" }, "unsupported_response_type"],
    ["another resource", { resource: "https://api.example.com/api/v3" }, "invalid_target"],
    ["an unknown scope", { scope: "store:read admin" }, "invalid_scope"],
    ["an empty scope", { scope: " " }, "invalid_scope"]
  ])("redirects %s with %s", (_name, overrides, error) => {
    const verdict = checkAuthorizationRequest(request(overrides), client, agent)
    expect(verdict).toMatchObject({ _tag: "Redirect", error, redirectUri: "https://a.example/cb", state: "xyz" })
  })

  it("defaults the scope to every scope, and the redirect URI to the only one registered", () => {
    const single = { ...client, redirectUris: ["https://a.example/cb"] }
    const verdict = checkAuthorizationRequest(request({ scope: undefined, redirect_uri: undefined }), single, agent)
    expect(verdict).toMatchObject({ _tag: "Valid", request: { scopes: SCOPES, redirectUriGiven: false } })
  })

  it("answers at the redirect URI keeping its query and adding no iss", () => {
    const url = new URL(redirectWith("https://a.example/cb?keep=1", { code: "c", state: "s", error: undefined }))
    expect([...url.searchParams.keys()]).toEqual(["keep", "code", "state"])
  })
})
