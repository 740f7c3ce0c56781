import { describe, expect, it } from "vitest"
import { issParameter } from "../../../src/domain/oauth/authorization-request.js"
import {
  checkMetadataDocument,
  classifyClientId,
  documentFreshness
} from "../../../src/domain/oauth/client-metadata-document.js"
import { unionOfScopes } from "../../../src/domain/oauth/grant.js"
import { authorizationServerMetadata } from "../../../src/domain/oauth/metadata.js"

const URL_ID = "https://agent.example/oauth/client.json"
const document = (extra: Record<string, unknown> = {}) => ({
  client_id: URL_ID,
  client_name: "Agent",
  redirect_uris: ["https://agent.example/callback"],
  ...extra
})

describe("which client_id names a metadata document", () => {
  it("takes an https URL with a path as a document, anything else as a registration's id", () => {
    expect(classifyClientId(URL_ID, "production")).toMatchObject({ _tag: "Document" })
    expect(classifyClientId("sc_client_abc", "production")).toEqual({ _tag: "Registered" })
    expect(classifyClientId("http://agent.example/client.json", "development")).toEqual({ _tag: "Registered" })
  })

  it("accepts http documents on 127.0.0.1 and localhost outside production only", () => {
    for (const id of ["http://127.0.0.1:8123/client.json", "http://localhost:8123/client.json"]) {
      expect(classifyClientId(id, "test")._tag).toBe("Document")
      expect(classifyClientId(id, "development")._tag).toBe("Document")
      expect(classifyClientId(id, "production")._tag).toBe("Registered")
    }
    expect(classifyClientId("http://127.0.0.1.evil.example/client.json", "test")._tag).toBe("Registered")
  })

  it("refuses document URLs without a path, with a fragment, credentials or dot segments", () => {
    for (const id of [
      "https://agent.example",
      "https://agent.example/",
      "https://agent.example/client.json#x",
      "https://user:pw@agent.example/client.json",
      "https://agent.example/a/../client.json",
      "https://agent.example/./client.json",
      `https://agent.example/${"x".repeat(2000)}`
    ]) {
      expect(classifyClientId(id, "production")._tag, id).toBe("Refused")
    }
  })
})

describe("checking a fetched metadata document", () => {
  it("accepts a public client whose client_id is the URL it was fetched from", () => {
    const verdict = checkMetadataDocument(URL_ID, document({ scope: "store:read" }))
    expect(verdict).toEqual({
      _tag: "Valid",
      registration: {
        client_name: "Agent",
        redirect_uris: ["https://agent.example/callback"],
        grant_types: ["authorization_code"],
        scope: ["store:read"]
      }
    })
  })

  it("refuses another client_id, a missing client_name, and whatever a registration may not hold", () => {
    const refused = (body: unknown) => checkMetadataDocument(URL_ID, body)._tag
    expect(refused(document({ client_id: "https://agent.example/other.json" }))).toBe("Invalid")
    expect(refused(document({ client_id: undefined }))).toBe("Invalid")
    expect(refused(document({ client_name: undefined }))).toBe("Invalid")
    expect(refused(document({ client_name: " " }))).toBe("Invalid")
    expect(refused(document({ redirect_uris: [] }))).toBe("Invalid")
    expect(refused(document({ redirect_uris: ["http://agent.example/cb"] }))).toBe("Invalid")
    expect(refused(document({ token_endpoint_auth_method: "private_key_jwt" }))).toBe("Invalid")
    expect(refused(document({ grant_types: ["client_credentials"] }))).toBe("Invalid")
    expect(refused([document()])).toBe("Invalid")
    expect(refused("text")).toBe("Invalid")
  })
})

describe("how long a fetched document is kept", () => {
  const headers = (given: Partial<Record<"cacheControl" | "expires" | "date" | "age", string>>) => ({
    cacheControl: undefined,
    expires: undefined,
    date: undefined,
    age: undefined,
    ...given
  })

  it("follows max-age less Age, never beyond 24 hours", () => {
    expect(documentFreshness(headers({ cacheControl: "public, max-age=600" }))).toBe(600)
    expect(documentFreshness(headers({ cacheControl: "max-age=600", age: "100" }))).toBe(500)
    expect(documentFreshness(headers({ cacheControl: "max-age=999999" }))).toBe(86400)
    expect(documentFreshness(headers({ cacheControl: "max-age=\"60\"" }))).toBe(60)
  })

  it("keeps nothing under no-store or no-cache, or without caching headers", () => {
    expect(documentFreshness(headers({ cacheControl: "no-store, max-age=600" }))).toBe(0)
    expect(documentFreshness(headers({ cacheControl: "no-cache" }))).toBe(0)
    expect(documentFreshness(headers({}))).toBe(0)
    expect(documentFreshness(headers({ cacheControl: "max-age=abc" }))).toBe(0)
  })

  it("falls back on Expires less Date", () => {
    const date = "Sun, 06 Nov 1994 08:49:37 GMT"
    expect(documentFreshness(headers({ date, expires: "Sun, 06 Nov 1994 09:49:37 GMT" }))).toBe(3600)
    expect(documentFreshness(headers({ date, expires: "Sun, 06 Nov 1994 07:49:37 GMT" }))).toBe(0)
    expect(documentFreshness(headers({ date, expires: "0" }))).toBe(0)
    expect(documentFreshness(headers({ expires: "Sun, 06 Nov 1994 09:49:37 GMT" }))).toBe(0)
  })
})

describe("RFC 9207 iss and the metadata", () => {
  it("adds iss only when the deployment sends it, and says so in the metadata", () => {
    expect(issParameter("https://api.example.com", false)).toEqual({})
    expect(issParameter("https://api.example.com", true)).toEqual({ iss: "https://api.example.com" })
    expect(authorizationServerMetadata("https://api.example.com").authorization_response_iss_parameter_supported).toBe(false)
    expect(authorizationServerMetadata("https://api.example.com", { issParameter: true }).authorization_response_iss_parameter_supported)
      .toBe(true)
    expect(authorizationServerMetadata("https://api.example.com").client_id_metadata_document_supported).toBe(true)
  })
})

describe("a grant that grows an earlier one", () => {
  it("holds what was granted before and what is approved now, each once", () => {
    expect(unionOfScopes([["pricing:read"]], ["pricing:write"])).toEqual(["pricing:read", "pricing:write"])
    expect(unionOfScopes([["store:read", "pricing:read"], ["pricing:read"]], ["pricing:read"])).toEqual(["store:read", "pricing:read"])
    expect(unionOfScopes([], ["store:read"])).toEqual(["store:read"])
  })
})
