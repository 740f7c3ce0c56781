import { isScope, type Scope } from "../credentials/scopes.js"
import { checkRedirectUri } from "./redirect-uri.js"
import { parseScopeParam } from "./scope-param.js"

/** The grant types a client may register. */
export type ClientGrantType = "authorization_code" | "refresh_token"

/** A registration request that passed every rule. */
export interface ClientRegistration {
  readonly redirect_uris: ReadonlyArray<string>
  readonly client_name: string | null
  readonly grant_types: ReadonlyArray<ClientGrantType>
  readonly scope: ReadonlyArray<Scope> | null
}

/** An RFC 7591 §3.2.2 error. */
export interface RegistrationError {
  readonly error: "invalid_redirect_uri" | "invalid_client_metadata"
  readonly error_description: string
}

/** The outcome of checking a registration request. */
export type RegistrationVerdict =
  | { readonly _tag: "Valid"; readonly registration: ClientRegistration }
  | { readonly _tag: "Invalid"; readonly error: RegistrationError }

const MAX_REDIRECT_URIS = 10
const MAX_NAME_LENGTH = 200

const metadataError = (error_description: string): RegistrationVerdict => ({
  _tag: "Invalid",
  error: { error: "invalid_client_metadata", error_description }
})

const isStringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

/**
 * Checks an RFC 7591 registration request against the connector's rules (docs/agent.md): public clients only
 * (`token_endpoint_auth_method` `none`, no secret), only the `authorization_code` and
 * `refresh_token` grants, response type `code`, and redirect URIs that pass
 * {@link checkRedirectUri}. Unknown metadata is ignored, as RFC 7591 allows.
 */
export const checkRegistration = (body: unknown): RegistrationVerdict => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return metadataError("The request body must be a JSON object of client metadata.")
  }
  const meta = body as Record<string, unknown>
  const uris = meta.redirect_uris
  if (!isStringArray(uris) || uris.length === 0) {
    return { _tag: "Invalid", error: { error: "invalid_redirect_uri", error_description: "redirect_uris must be a non-empty array of URLs." } }
  }
  if (uris.length > MAX_REDIRECT_URIS) {
    return { _tag: "Invalid", error: { error: "invalid_redirect_uri", error_description: `At most ${MAX_REDIRECT_URIS} redirect URIs.` } }
  }
  for (const uri of uris) {
    const verdict = checkRedirectUri(uri)
    if (verdict._tag === "Refused") {
      return { _tag: "Invalid", error: { error: "invalid_redirect_uri", error_description: `${JSON.stringify(uri)}: ${verdict.detail}` } }
    }
  }
  const authMethod = meta.token_endpoint_auth_method
  if (authMethod !== undefined && authMethod !== "none") {
    return metadataError("Only public clients are supported: token_endpoint_auth_method must be \"none\".")
  }
  if (meta.client_secret !== undefined) return metadataError("Public clients have no client_secret.")
  const grants = meta.grant_types ?? ["authorization_code"]
  if (!isStringArray(grants) || grants.length === 0) return metadataError("grant_types must be a non-empty array.")
  const grantTypes: Array<ClientGrantType> = []
  for (const grant of grants) {
    if (grant !== "authorization_code" && grant !== "refresh_token") {
      return metadataError(`Unsupported grant type ${JSON.stringify(grant)}: only authorization_code and refresh_token.`)
    }
    if (!grantTypes.includes(grant)) grantTypes.push(grant)
  }
  if (!grantTypes.includes("authorization_code")) return metadataError("grant_types must include authorization_code.")
  const responseTypes = meta.response_types ?? ["code"]
  if (!isStringArray(responseTypes) || responseTypes.length === 0 || responseTypes.some((type) => type !== "code")) {
    return metadataError("response_types must be [\"code\"].")
  }
  const name = meta.client_name
  if (name !== undefined && (typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME_LENGTH)) {
    return metadataError(`client_name must be a non-empty string of at most ${MAX_NAME_LENGTH} characters.`)
  }
  let scope: ReadonlyArray<Scope> | null = null
  if (meta.scope !== undefined) {
    if (typeof meta.scope !== "string") return metadataError("scope must be a space-separated string.")
    const parsed = parseScopeParam(meta.scope)
    if (parsed._tag === "Unknown") return metadataError(`Unknown scope: ${parsed.unknown.join(", ")}.`)
    scope = parsed.scopes.filter(isScope)
  }
  return {
    _tag: "Valid",
    registration: {
      redirect_uris: [...uris],
      client_name: typeof name === "string" ? name.trim() : null,
      grant_types: grantTypes,
      scope
    }
  }
}
