import { Context, Redacted } from "effect"
import { normaliseBaseUrl } from "../domain/deployment/base-path.js"
import { parseTrustProxy, TRUST_NO_PROXY, type TrustProxy } from "../domain/deployment/client-address.js"
import { parseDisabledParts, type SwitchablePart } from "../domain/deployment/switches.js"

/** The deployment environment; production tightens URL rules and disables diagnostics. */
export type Environment = "development" | "test" | "production"

/** Everything the service needs to know about its deployment (docs/configuration.md). */
export interface ServiceSettings {
  /**
   * Public URL of the API and the authorization server, without a trailing slash. It may carry a
   * path (`https://shop.example/signs`): then everything is served under that path and only there.
   */
  readonly baseUrl: string
  /**
   * Origin and resource identifier of the agent endpoint when it has a listener of its
   * own (`MCP_URL`); when absent the agent endpoint is `{baseUrl}/mcp`.
   */
  readonly mcpUrl: string | undefined
  readonly environment: Environment
  /** Bearer token of the operator API; the operator API answers 404 when absent. */
  readonly operatorToken: Redacted.Redacted<string> | undefined
  /** `METRICS_TOKEN`: bearer token of `GET /metrics`; metrics are neither counted nor served when absent. */
  readonly metricsToken: Redacted.Redacted<string> | undefined
  readonly rateLimitPerKeyPerMinute: number
  readonly rateLimitPerIpPerMinute: number
  readonly registrationLimitPerHour: number
  readonly registrationLimitPerDay: number
  /** Registered clients that never obtained a token kept at most, whoever registered them; the oldest go first. */
  readonly unusedClientCap: number
  /** `RETENTION_DAYS`: delivered events, attempts, revoked grants and quotes older than this are deleted. */
  readonly retentionDays: number
  /** Storefront writes (designs, form submissions) one Store takes a minute from all shoppers. */
  readonly storefrontWritesPerStorePerMinute: number
  /** Storefront writes one client address takes a minute, whatever the Store. */
  readonly storefrontWritesPerAddressPerMinute: number
  readonly webhookRetryBaseMs: number
  /** Largest request body accepted, in bytes. */
  readonly maxBodyBytes: number
  /** Origins the storefront API answers (`CORS_ORIGINS`); any origin when absent. */
  readonly corsOrigins: ReadonlyArray<string> | undefined
  /**
   * `SECRETS_KEY`: a comma list of base64 32-byte keys sealing stored secrets, the sealing key
   * first. Required in production; development and test derive a fixed key when absent.
   */
  readonly secretsKey: Redacted.Redacted<string> | undefined
  /** `TRUST_PROXY`: which proxies' `X-Forwarded-For` hops name the client; none by default. */
  readonly trustProxy: TrustProxy
  /** `SIGNCRAFT_DISABLE`: the parts switched off, which answer 404 like an unknown path. */
  readonly disable: ReadonlyArray<SwitchablePart>
  /**
   * `OAUTH_ISS_PARAMETER`: every authorization response carries RFC 9207 `iss`, and the metadata
   * says so. Off by default, as the MCP connector profile the service follows fixes it.
   */
  readonly oauthIssParameter: boolean
}

/** The deployment's settings. */
export class Settings extends Context.Service<Settings, ServiceSettings>()("signcraft/Settings") {}

/**
 * Settings as an embedder writes them: every field optional, secrets as plain strings, so a host
 * app (a Next.js route, say) never imports `effect` itself and cannot hand over a `Redacted`
 * from a second copy of it.
 */
export type SettingsInput = Partial<Omit<ServiceSettings, "operatorToken" | "metricsToken" | "secretsKey" | "trustProxy" | "disable">> & {
  readonly operatorToken?: string | Redacted.Redacted<string> | undefined
  readonly metricsToken?: string | Redacted.Redacted<string> | undefined
  readonly secretsKey?: string | Redacted.Redacted<string> | undefined
  /** A hop count, a comma list of CIDRs (as `TRUST_PROXY`), or the parsed form. */
  readonly trustProxy?: string | number | TrustProxy | undefined
  /** The parts to switch off: a comma list (as `SIGNCRAFT_DISABLE`) or a list of names. */
  readonly disable?: string | ReadonlyArray<string> | undefined
}

// `TRUST_PROXY` as an embedder may write it; a value that is not one is a programming error.
const trustProxyOf = (value: string | number | TrustProxy | undefined): TrustProxy => {
  if (value === undefined) return TRUST_NO_PROXY
  if (typeof value === "object") return value
  const parsed = parseTrustProxy(String(value))
  if ("fault" in parsed) throw new TypeError(`trustProxy must be ${parsed.fault}`)
  return parsed
}

// The parts to switch off as an embedder may write them; an unknown name is a programming error.
const disabledPartsOf = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<SwitchablePart> => {
  if (value === undefined) return []
  const parsed = parseDisabledParts(value)
  if ("fault" in parsed) throw new TypeError(`disable must be ${parsed.fault}`)
  return parsed.parts
}

// An unset variable often arrives as "": that must leave a secret unset, not set it to "".
const secretOf = (value: string | Redacted.Redacted<string> | undefined): Redacted.Redacted<string> | undefined =>
  typeof value !== "string" ? value : value.trim() === "" ? undefined : Redacted.make(value)

// An unset variable read as `process.env.X` arrives as `undefined`: it leaves the default, never
// replaces it (`{ baseUrl: process.env.BASE_URL }` with BASE_URL unset keeps the default origin).
const definedOnly = <A extends object>(input: A): Partial<A> =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<A>

/** The documented defaults (docs/configuration.md), for embedders and tests; `undefined` values keep the default. */
export const defaultSettings = (
  { operatorToken, metricsToken, secretsKey, trustProxy, disable, ...given }: SettingsInput = {}
): ServiceSettings => {
  const overrides = definedOnly(given)
  return {
    mcpUrl: undefined,
    environment: "development",
    rateLimitPerKeyPerMinute: 600,
    rateLimitPerIpPerMinute: 1200,
    registrationLimitPerHour: 20,
    registrationLimitPerDay: 100,
    unusedClientCap: 1000,
    storefrontWritesPerStorePerMinute: 600,
    storefrontWritesPerAddressPerMinute: 30,
    retentionDays: 30,
    webhookRetryBaseMs: 30_000,
    maxBodyBytes: 1024 * 1024,
    corsOrigins: undefined,
    oauthIssParameter: false,
    ...overrides,
    baseUrl: normaliseBaseUrl(overrides.baseUrl ?? "http://localhost:8080"),
    operatorToken: secretOf(operatorToken),
    metricsToken: secretOf(metricsToken),
    secretsKey: secretOf(secretsKey),
    trustProxy: trustProxyOf(trustProxy),
    disable: disabledPartsOf(disable)
  }
}

/** The shortest operator token production accepts. */
export const MIN_PRODUCTION_OPERATOR_TOKEN_LENGTH = 32

/**
 * What production refuses to start with, as each would leave it open: a `BASE_URL` that is not
 * HTTPS, no `SECRETS_KEY`, or an `OPERATOR_TOKEN` shorter than 32 characters. Empty elsewhere.
 */
export const productionFaults = (settings: ServiceSettings): ReadonlyArray<string> => {
  if (settings.environment !== "production") return []
  const faults: Array<string> = []
  if (!settings.baseUrl.startsWith("https://")) faults.push("BASE_URL must be an https:// URL in production")
  if (settings.secretsKey === undefined) faults.push("SECRETS_KEY must be set in production (e.g. `openssl rand -base64 32`)")
  if (settings.operatorToken !== undefined && Redacted.value(settings.operatorToken).length < MIN_PRODUCTION_OPERATOR_TOKEN_LENGTH) {
    faults.push(`OPERATOR_TOKEN must be at least ${MIN_PRODUCTION_OPERATOR_TOKEN_LENGTH} characters in production (value not shown)`)
  }
  return faults
}
