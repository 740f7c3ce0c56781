import { Context, Redacted } from "effect"

/** The deployment environment; production tightens URL rules and disables diagnostics. */
export type Environment = "development" | "test" | "production"

/** Everything the service needs to know about its deployment (operating contract §1). */
export interface ServiceSettings {
  /** Public origin of the API and the authorization server, without a trailing slash. */
  readonly baseUrl: string
  /**
   * Origin and resource identifier of the agent endpoint when it has a listener of its
   * own (`MCP_URL`); when absent the agent endpoint is `{baseUrl}/mcp`.
   */
  readonly mcpUrl: string | undefined
  readonly environment: Environment
  /** Bearer token of the operator API; the operator API answers 404 when absent. */
  readonly operatorToken: Redacted.Redacted<string> | undefined
  readonly rateLimitPerKeyPerMinute: number
  readonly rateLimitPerIpPerMinute: number
  readonly registrationLimitPerHour: number
  readonly registrationLimitPerDay: number
  readonly webhookRetryBaseMs: number
  /** Largest request body accepted, in bytes. */
  readonly maxBodyBytes: number
  /** Origins the storefront API answers (`CORS_ORIGINS`); any origin when absent. */
  readonly corsOrigins: ReadonlyArray<string> | undefined
}

/** The deployment's settings. */
export class Settings extends Context.Service<Settings, ServiceSettings>()("signcraft/Settings") {}

/**
 * Settings as an embedder writes them: every field optional, secrets as plain strings, so a host
 * app (a Next.js route, say) never imports `effect` itself and cannot hand over a `Redacted`
 * from a second copy of it.
 */
export type SettingsInput = Partial<Omit<ServiceSettings, "operatorToken">> & {
  readonly operatorToken?: string | Redacted.Redacted<string> | undefined
}

/** Defaults of the operating contract, for embedders and tests. */
export const defaultSettings = ({ operatorToken, ...overrides }: SettingsInput = {}): ServiceSettings => ({
  baseUrl: "http://localhost:8080",
  mcpUrl: undefined,
  environment: "development",
  rateLimitPerKeyPerMinute: 600,
  rateLimitPerIpPerMinute: 1200,
  registrationLimitPerHour: 20,
  registrationLimitPerDay: 100,
  webhookRetryBaseMs: 30_000,
  maxBodyBytes: 1024 * 1024,
  corsOrigins: undefined,
  ...overrides,
  operatorToken: typeof operatorToken !== "string"
    ? operatorToken
    // An unset variable often arrives as "": that must leave the operator API off, not open it to "".
    : operatorToken.trim() === ""
    ? undefined
    : Redacted.make(operatorToken)
})
