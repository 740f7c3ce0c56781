import type { ServiceSettings } from "../services/settings.js"

/**
 * Browser access (docs/cors.md). The storefront API, the `/.well-known` documents,
 * client registration, the token and revocation endpoints and the agent endpoint are called
 * from other origins and carry no cookies, so any origin may read them (the storefront's may be
 * narrowed with `CORS_ORIGINS`). Everything else, `/oauth/authorize`, the operator API and the
 * key-authenticated APIs included, sends no CORS headers: secret keys never belong in a browser.
 */
export interface CorsRule {
  /** The `Access-Control-Allow-Origin` for a request from `origin`, or nothing to refuse it. */
  readonly allowOrigin: (origin: string | undefined) => string | undefined
  /** Whether the answer depends on the request's `Origin` (then `Vary: Origin`). */
  readonly variesByOrigin: boolean
  /** The request headers a preflight may ask for. */
  readonly allowHeaders: string
  /** The response headers a page may read besides the CORS-safelisted ones. */
  readonly exposeHeaders: string
  /** The methods a preflight allows; from the route table when not given. */
  readonly methods?: ReadonlyArray<string>
}

const anyOrigin = () => "*"

const rule = (allowHeaders: string, exposeHeaders: string, methods?: ReadonlyArray<string>): CorsRule => ({
  allowOrigin: anyOrigin,
  variesByOrigin: false,
  allowHeaders,
  exposeHeaders,
  ...(methods === undefined ? {} : { methods })
})

const OAUTH_ENDPOINTS: ReadonlySet<string> = new Set(["/oauth/register", "/oauth/token", "/oauth/revoke"])

/** The CORS rule of each path, for the deployment's settings and the agent endpoint's path. */
export const makeCorsRules = (settings: Pick<ServiceSettings, "corsOrigins">, agentPath: string | undefined) => {
  const origins = settings.corsOrigins === undefined ? undefined : new Set(settings.corsOrigins)
  const storefront: CorsRule = origins === undefined
    ? rule("content-type", "retry-after")
    : {
      allowOrigin: (origin) => (origin !== undefined && origins.has(origin) ? origin : undefined),
      variesByOrigin: true,
      allowHeaders: "content-type",
      exposeHeaders: "retry-after"
    }
  const wellKnown = rule("authorization, content-type", "")
  const oauth = rule("authorization, content-type", "retry-after")
  const agent = rule(
    "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id",
    "www-authenticate, mcp-session-id, mcp-protocol-version, retry-after",
    ["GET", "POST", "DELETE"]
  )
  return (pathname: string): CorsRule | undefined => {
    if (pathname === agentPath) return agent
    if (pathname.startsWith("/storefront/")) return storefront
    if (pathname.startsWith("/.well-known/")) return wellKnown
    if (OAUTH_ENDPOINTS.has(pathname)) return oauth
    return undefined
  }
}

/** The headers an answer under `rule` carries for a request from `origin`. */
export const corsHeaders = (rule: CorsRule, origin: string | undefined): ReadonlyArray<readonly [string, string]> => {
  const allowed = rule.allowOrigin(origin)
  const vary: ReadonlyArray<readonly [string, string]> = rule.variesByOrigin ? [["vary", "origin"]] : []
  if (allowed === undefined) return vary
  return [
    ["access-control-allow-origin", allowed],
    ...(rule.exposeHeaders === "" ? [] : [["access-control-expose-headers", rule.exposeHeaders] as const]),
    ...vary
  ]
}

/** The headers of the answer to a preflight under `rule`, allowing `methods`. */
export const preflightHeaders = (
  rule: CorsRule,
  origin: string | undefined,
  methods: ReadonlyArray<string>
): ReadonlyArray<readonly [string, string]> => {
  const base = corsHeaders(rule, origin)
  if (rule.allowOrigin(origin) === undefined) return base
  return [
    ...base,
    ["access-control-allow-methods", [...(rule.methods ?? methods), "OPTIONS"].join(", ")],
    ["access-control-allow-headers", rule.allowHeaders],
    ["access-control-max-age", "600"]
  ]
}
