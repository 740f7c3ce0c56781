import { SCOPES } from "../credentials/scopes.js"

/** An absolute path on an origin. */
export type RoutePath = `/${string}`

const isRoutePath = (path: string): path is RoutePath => path.startsWith("/")
const routePath = (path: string): RoutePath => (isRoutePath(path) ? path : `/${path}`)

/** Where the agent endpoint lives in a deployment, and how clients discover it. */
export interface AgentLocation {
  /** The resource identifier: the `resource` of its metadata and the audience of its tokens. */
  readonly resource: string
  /** The origin that serves the endpoint. */
  readonly origin: string
  /** The endpoint's path on that origin: `/mcp` on the base URL, `/` on its own origin. */
  readonly path: RoutePath
  /** The protected-resource metadata URL named in the 401 challenge. */
  readonly metadataUrl: string
  /** Whether the endpoint has an origin of its own (`MCP_URL`), apart from the base URL. */
  readonly separateOrigin: boolean
}

const PRM_PATH: RoutePath = "/.well-known/oauth-protected-resource"
const ASM_PATH: RoutePath = "/.well-known/oauth-authorization-server"

/**
 * The agent endpoint of a deployment (docs/agent.md): `{base_url}/mcp` unless
 * `MCP_URL` gives it an origin of its own, served at that origin's root.
 */
export const agentLocation = (baseUrl: string, mcpUrl: string | undefined): AgentLocation => {
  if (mcpUrl === undefined) {
    return {
      resource: `${baseUrl}/mcp`,
      origin: baseUrl,
      path: "/mcp",
      metadataUrl: `${baseUrl}${PRM_PATH}/mcp`,
      separateOrigin: false
    }
  }
  const url = new URL(mcpUrl)
  const path = routePath(url.pathname)
  return {
    resource: mcpUrl,
    origin: url.origin,
    path,
    metadataUrl: `${url.origin}${PRM_PATH}${path === "/" ? "" : path.replace(/\/+$/, "")}`,
    separateOrigin: true
  }
}

/**
 * The paths at which the origin serving the agent endpoint publishes both metadata
 * documents: the bare `/.well-known/...` paths, and (RFC 9728 §3.1, RFC 8414 §3.1)
 * the same with the endpoint's path appended when it has one.
 */
export const wellKnownPaths = (location: AgentLocation) => {
  const suffix = location.path === "/" ? "" : location.path.replace(/\/+$/, "")
  const both = (base: RoutePath): ReadonlyArray<RoutePath> => (suffix === "" ? [base] : [base, `${base}${suffix}`])
  return { protectedResource: both(PRM_PATH), authorizationServer: both(ASM_PATH) }
}

/** What the authorization server offers beyond its fixed metadata values. */
export interface AuthorizationServerFeatures {
  /** RFC 9207: `iss` on every authorization response. */
  readonly issParameter: boolean
}

/**
 * The authorization server's RFC 8414 metadata (docs/agent.md), plus
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document), which it accepts
 * beside dynamic registration.
 */
export const authorizationServerMetadata = (
  baseUrl: string,
  features: AuthorizationServerFeatures = { issParameter: false }
) => ({
  issuer: baseUrl,
  authorization_endpoint: `${baseUrl}/oauth/authorize`,
  token_endpoint: `${baseUrl}/oauth/token`,
  registration_endpoint: `${baseUrl}/oauth/register`,
  revocation_endpoint: `${baseUrl}/oauth/revoke`,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: ["none"],
  revocation_endpoint_auth_methods_supported: ["none"],
  scopes_supported: [...SCOPES],
  authorization_response_iss_parameter_supported: features.issParameter,
  client_id_metadata_document_supported: true,
  service_documentation: `${baseUrl}/docs`
})

/** The agent endpoint's RFC 9728 metadata: its exact resource, its authorization server, every scope. */
export const protectedResourceMetadata = (baseUrl: string, location: AgentLocation) => ({
  resource: location.resource,
  authorization_servers: [baseUrl],
  scopes_supported: [...SCOPES],
  bearer_methods_supported: ["header"],
  resource_name: "signcraft agent endpoint",
  resource_documentation: `${baseUrl}/docs`
})
