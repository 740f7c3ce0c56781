import { Context } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"
import { grantAllows, type Scope } from "../../domain/credentials/scopes.js"
import type { ApiKeyPrincipal, Credentials } from "../../services/credentials/credentials.js"
import type { RateLimiter } from "../../services/requests/rate-limiter.js"
import type { ServiceSettings } from "../../services/settings.js"
import { acceptedScopes, DeprecatedOperation, RequiredScope } from "../annotations.js"
import type { RequestInfo } from "../request-info.js"

/** The header a test key sets to ask for the diagnostic quota. */
export const DIAGNOSTIC_HEADER = "x-signcraft-rate-limit-test"

/** What an endpoint's annotations ask of the API-key checks. */
export interface EndpointRules {
  /** The scopes of which the key needs one; empty when the endpoint needs none. */
  readonly accepted: ReadonlyArray<Scope>
  readonly operation: string | undefined
}

/** Reads an endpoint's rules from its annotations. */
export const endpointRulesOf = (endpoint: HttpApiEndpoint.Top): EndpointRules => ({
  accepted: acceptedScopes(Context.get(endpoint.annotations, RequiredScope)),
  operation: Context.get(endpoint.annotations, DeprecatedOperation)
})

/** Whether the key holds one of the accepted scopes (any key passes an endpoint that needs none). */
export const allowsAny = (principal: ApiKeyPrincipal, accepted: ReadonlyArray<Scope>): boolean =>
  accepted.length === 0 || accepted.some((scope) => grantAllows(principal.grant, scope))

/** The API-key checks that need no effect: those answered from what this process holds. */
export const makeHeldKeyChecks = (
  settings: ServiceSettings,
  credentials: Credentials["Service"],
  limiter: RateLimiter["Service"]
) => {
  /** Whether the request asks for the diagnostic quota (a test key outside production). */
  const isDiagnostic = (principal: ApiKeyPrincipal, diagnosticHeader: string | undefined) =>
    settings.environment !== "production" && principal.mode === "test" && diagnosticHeader?.toLowerCase() === "true"

  // Every v3 answer to a known key tells what is left of its quota (docs/rate-limits.md, in the
  // fields of the IETF httpapi RateLimit header fields draft), errors included.
  const policy = `"key";q=${settings.rateLimitPerKeyPerMinute};w=60`
  /** Puts the key's quota headers on the request's answer (v3 only). */
  const announceQuota = (info: RequestInfo, principal: ApiKeyPrincipal, now: number): void => {
    if (info.generation !== "v3") return
    const { remaining, resetSeconds } = limiter.quotaState(`key:${principal.keyId}`, settings.rateLimitPerKeyPerMinute, 60, now)
    info.responseHeaders.set("ratelimit-policy", policy)
    info.responseHeaders.set("ratelimit", `"key";r=${remaining};t=${resetSeconds}`)
  }

  /**
   * Every check of the API-key middleware after the key is known, for the common case where
   * every answer is held in this process: a spare token of the client's IP and of the key, a
   * scope the endpoint accepts. Whether the key is admitted; when not, nothing was spent and
   * the full checks run.
   */
  const admitHeld = (
    info: RequestInfo,
    principal: ApiKeyPrincipal,
    diagnosticHeader: string | undefined,
    endpointRules: EndpointRules,
    now: number
  ): boolean => {
    if (isDiagnostic(principal, diagnosticHeader)) return false
    const { accepted, operation } = endpointRules
    if (operation !== undefined || !allowsAny(principal, accepted)) return false
    // The IP token is spent only when the key's is known to be held too, so that
    // falling back to the full checks never spends a token twice.
    const keyBucket = `key:${principal.keyId}`
    if (!limiter.holdsToken(keyBucket, 60, now) || limiter.admitIpHeldUnsafe(info.clientIp, now) === undefined) return false
    limiter.takeHeldUnsafe(keyBucket, settings.rateLimitPerKeyPerMinute, 60, now)
    announceQuota(info, principal, now)
    info.storeId = principal.storeId
    return true
  }

  /** {@link admitHeld} for the key `presented`, verified within the cache bound: the admitted key, or undefined. */
  const heldAdmission = (
    info: RequestInfo,
    presented: string,
    diagnosticHeader: string | undefined,
    endpointRules: EndpointRules,
    now: number
  ): ApiKeyPrincipal | undefined => {
    if (presented === "") return undefined
    const principal = credentials.verifiedUnsafe(presented, now)
    return principal !== undefined && admitHeld(info, principal, diagnosticHeader, endpointRules, now) ? principal : undefined
  }

  return { isDiagnostic, announceQuota, admitHeld, heldAdmission }
}
