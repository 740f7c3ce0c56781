import { isIP } from "node:net"
import {
  DATABASE_SCHEMA_EXPECTED,
  DEFAULT_DATABASE_SCHEMA,
  defaultSettings,
  isDatabaseSchemaName,
  type DatabaseConfig,
  type Environment,
  parseDisabledParts,
  parseKeyring,
  parseTrustProxy,
  productionFaults,
  type ServiceSettings,
  TRUST_NO_PROXY
} from "@signcraft/core"
import { Redacted } from "effect"

/** The environment variables the server reads (docs/configuration.md). */
export const CONFIG_VARIABLES = [
  "PORT",
  "HOST",
  "BASE_URL",
  "MCP_PORT",
  "MCP_URL",
  "DATABASE_URL",
  "DATA_DIR",
  "DATABASE_SCHEMA",
  "OPERATOR_TOKEN",
  "SIGNCRAFT_ENV",
  "RATE_LIMIT_PER_KEY_PER_MINUTE",
  "RATE_LIMIT_PER_IP_PER_MINUTE",
  "REGISTRATION_LIMIT_PER_HOUR",
  "REGISTRATION_LIMIT_PER_DAY",
  "REGISTRATION_UNUSED_CLIENT_CAP",
  "STOREFRONT_LIMIT_PER_STORE_PER_MINUTE",
  "STOREFRONT_LIMIT_PER_ADDRESS_PER_MINUTE",
  "RETENTION_DAYS",
  "WEBHOOK_RETRY_BASE_MS",
  "CORS_ORIGINS",
  "SECRETS_KEY",
  "TRUST_PROXY",
  "SIGNCRAFT_DISABLE",
  "OAUTH_ISS_PARAMETER",
  "METRICS_TOKEN",
  "LOG_FORMAT",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_SERVICE_NAME"
] as const

// `CORS_ORIGINS`: `*` (or unset) for any origin, else origins exactly as browsers send them.
const readCorsOrigins = (value: string | undefined, invalid: (value: string) => void): ReadonlyArray<string> | undefined => {
  if (value === undefined || value.trim() === "*") return undefined
  const origins = value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  for (const origin of origins) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined
    if (url === undefined || url.origin !== origin) {
      invalid(origin)
      return undefined
    }
  }
  return origins
}

/** One configuration variable's name. */
export type ConfigVariable = (typeof CONFIG_VARIABLES)[number]

/** Where configuration is read from: `process.env`, or a plain record in tests. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>

/** The agent endpoint's own listener, when `MCP_PORT` and `MCP_URL` are set. */
export interface McpListener {
  readonly port: number
  /** The endpoint's origin and resource identifier, exactly as configured. */
  readonly url: string
}

/** How request lines are written: one JSON object each, or one line of text for people. */
export type LogFormat = "json" | "text"

/** Where spans go (OTLP over HTTP, JSON), when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. */
export interface TraceExport {
  /** The collector's base URL; spans are posted to `{endpoint}/v1/traces`. */
  readonly endpoint: string
  readonly serviceName: string
}

/** Everything `serve` needs: the service settings, where to listen and where the data lives. */
export interface ServerConfig {
  readonly settings: ServiceSettings
  readonly port: number
  readonly host: string
  readonly database: DatabaseConfig
  readonly mcp?: McpListener
  /** `LOG_FORMAT`; unset, text on a terminal and JSON anywhere else (a pipe, a file, a collector). */
  readonly logFormat?: LogFormat
  readonly traces?: TraceExport
}

/** The outcome of reading the configuration: a config, or every problem found. */
export type ConfigResult =
  | { readonly _tag: "Valid"; readonly config: ServerConfig }
  | { readonly _tag: "Invalid"; readonly errors: ReadonlyArray<string> }

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * How to name a variable in error messages, for values that came from elsewhere
   * (the `signcraft serve` flags name themselves, e.g. `--port`).
   */
  readonly labels?: Partial<Record<ConfigVariable, string>>
}

const ENVIRONMENTS: ReadonlyArray<Environment> = ["development", "test", "production"]
const LOG_FORMATS: ReadonlyArray<LogFormat> = ["json", "text"]
const DEFAULT_PORT = 8080
const DEFAULT_HOST = "127.0.0.1"
const DEFAULT_DATA_DIR = "./.data"
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/
const DIGITS = /^[0-9]+$/
// Control characters and whitespace cannot travel in an `Authorization: Bearer` header.
const TOKEN_FORBIDDEN = /[\s\p{Cc}]/u

/** Hides the password of a connection string, so error messages and banners never show it. */
export const redactUrlPassword = (value: string): string => value.replace(/(\/\/[^/@:]*:)[^@/]*@/, "$1***@")

const parseUrl = (value: string): URL | undefined => {
  try {
    return new URL(value)
  } catch {
    return undefined
  }
}

// Reads variables and collects every problem, so one run reports all of them.
const makeReader = (env: EnvironmentVariables, options: LoadConfigOptions) => {
  const errors: Array<string> = []
  const label = (name: ConfigVariable) => options.labels?.[name] ?? name
  const raw = (name: ConfigVariable): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value === "" ? undefined : value
  }
  const fail = (name: ConfigVariable, expected: string, shown: string) => {
    errors.push(`${label(name)} must be ${expected}, got ${JSON.stringify(shown)}`)
  }
  const integer = (name: ConfigVariable, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) => {
    const value = raw(name)
    if (value === undefined) return fallback
    const parsed = DIGITS.test(value) ? Number(value) : Number.NaN
    if (Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed
    fail(name, max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `an integer from ${min} to ${max}`, value)
    return undefined
  }
  const httpUrl = (name: ConfigVariable, value: string): URL | undefined => {
    const url = parseUrl(value)
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
      fail(name, "an absolute http:// or https:// URL", redactUrlPassword(value))
      return undefined
    }
    if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
      fail(name, "an http(s) URL without credentials, query or fragment", redactUrlPassword(value))
      return undefined
    }
    return url
  }
  return { errors, label, raw, fail, integer, httpUrl }
}

type Reader = ReturnType<typeof makeReader>

// MCP_PORT and MCP_URL only make sense together: one opens the listener, the other
// names it to clients.
const readMcp = (read: Reader, port: number | undefined): McpListener | undefined | "invalid" => {
  const portValue = read.raw("MCP_PORT")
  const urlValue = read.raw("MCP_URL")
  if (portValue === undefined && urlValue === undefined) return undefined
  const mcpPort = portValue === undefined ? undefined : read.integer("MCP_PORT", 0, 1, 65535)
  const mcpUrl = urlValue === undefined ? undefined : read.httpUrl("MCP_URL", urlValue)
  if (portValue === undefined || urlValue === undefined) {
    const [set, unset] = portValue === undefined ? ["MCP_URL", "MCP_PORT"] as const : ["MCP_PORT", "MCP_URL"] as const
    read.errors.push(
      `${read.label("MCP_PORT")} and ${read.label("MCP_URL")} must be set together: ${read.label(set)} is set, ${read.label(unset)} is not`
    )
    return "invalid"
  }
  if (mcpPort !== undefined && mcpPort === port) {
    read.errors.push(`${read.label("MCP_PORT")} must differ from ${read.label("PORT")} (both are ${port})`)
    return "invalid"
  }
  if (mcpPort === undefined || mcpUrl === undefined) return "invalid"
  return { port: mcpPort, url: urlValue }
}

/**
 * Reads and checks the server configuration from environment variables. Never throws:
 * every invalid value is reported, each as one line naming the variable, the value and
 * what is expected. Empty values count as unset, as `VAR=` in a shell or compose file means.
 */
export const loadConfig = (env: EnvironmentVariables, options: LoadConfigOptions = {}): ConfigResult => {
  const read = makeReader(env, options)
  const { errors, raw, fail, integer } = read

  const port = integer("PORT", DEFAULT_PORT, 1, 65535)

  const host = raw("HOST") ?? DEFAULT_HOST
  const bareHost = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  if (isIP(bareHost) === 0 && !HOST_NAME.test(bareHost)) fail("HOST", "an IP address or a host name", host)

  const baseUrlValue = raw("BASE_URL")
  let baseUrl: string | undefined
  if (baseUrlValue === undefined) {
    if (port !== undefined) baseUrl = `http://localhost:${port}`
  } else if (read.httpUrl("BASE_URL", baseUrlValue) !== undefined) {
    baseUrl = baseUrlValue.replace(/\/+$/, "")
  }

  const mcp = readMcp(read, port)

  const databaseUrl = raw("DATABASE_URL")
  if (databaseUrl !== undefined) {
    const url = parseUrl(databaseUrl)
    if (url === undefined || (url.protocol !== "postgres:" && url.protocol !== "postgresql:")) {
      fail("DATABASE_URL", "a postgres:// or postgresql:// connection URL", redactUrlPassword(databaseUrl))
    }
  }
  const dataDir = raw("DATA_DIR") ?? DEFAULT_DATA_DIR
  const schema = raw("DATABASE_SCHEMA") ?? DEFAULT_DATABASE_SCHEMA
  if (!isDatabaseSchemaName(schema)) fail("DATABASE_SCHEMA", DATABASE_SCHEMA_EXPECTED, schema)

  const operatorToken = raw("OPERATOR_TOKEN")
  if (operatorToken !== undefined && TOKEN_FORBIDDEN.test(operatorToken)) {
    // The value itself is a secret: name the problem, not the token.
    errors.push(`${read.label("OPERATOR_TOKEN")} must not contain spaces or control characters (value not shown)`)
  }

  const metricsToken = raw("METRICS_TOKEN")
  if (metricsToken !== undefined && TOKEN_FORBIDDEN.test(metricsToken)) {
    errors.push(`${read.label("METRICS_TOKEN")} must not contain spaces or control characters (value not shown)`)
  }
  const logFormatValue = raw("LOG_FORMAT")
  const logFormat = logFormatValue === undefined ? undefined : LOG_FORMATS.find((candidate) => candidate === logFormatValue.toLowerCase())
  if (logFormatValue !== undefined && logFormat === undefined) fail("LOG_FORMAT", "json or text", logFormatValue)
  const otlpValue = raw("OTEL_EXPORTER_OTLP_ENDPOINT")
  const otlpEndpoint = otlpValue === undefined ? undefined : parseUrl(otlpValue)
  if (otlpValue !== undefined && (otlpEndpoint === undefined || (otlpEndpoint.protocol !== "http:" && otlpEndpoint.protocol !== "https:"))) {
    fail("OTEL_EXPORTER_OTLP_ENDPOINT", "an http:// or https:// URL", redactUrlPassword(otlpValue))
  }
  const traces: TraceExport | undefined = otlpValue === undefined
    ? undefined
    : { endpoint: otlpValue.replace(/\/+$/, ""), serviceName: raw("OTEL_SERVICE_NAME") ?? "signcraft" }

  const environmentValue = raw("SIGNCRAFT_ENV") ?? "development"
  const environment = ENVIRONMENTS.find((candidate) => candidate === environmentValue)
  if (environment === undefined) fail("SIGNCRAFT_ENV", "one of development, test, production", environmentValue)

  const rateLimitPerKeyPerMinute = integer("RATE_LIMIT_PER_KEY_PER_MINUTE", 600, 1)
  const rateLimitPerIpPerMinute = integer("RATE_LIMIT_PER_IP_PER_MINUTE", 1200, 1)
  const registrationLimitPerHour = integer("REGISTRATION_LIMIT_PER_HOUR", 20, 1)
  const registrationLimitPerDay = integer("REGISTRATION_LIMIT_PER_DAY", 100, 1)
  const unusedClientCap = integer("REGISTRATION_UNUSED_CLIENT_CAP", 1000, 1)
  const storefrontWritesPerStorePerMinute = integer("STOREFRONT_LIMIT_PER_STORE_PER_MINUTE", 600, 1)
  const storefrontWritesPerAddressPerMinute = integer("STOREFRONT_LIMIT_PER_ADDRESS_PER_MINUTE", 30, 1)
  const retentionDays = integer("RETENTION_DAYS", 30, 1, 3650)
  const webhookRetryBaseMs = integer("WEBHOOK_RETRY_BASE_MS", 30_000, 1)
  const secretsKey = raw("SECRETS_KEY")
  if (secretsKey !== undefined) {
    const keyring = parseKeyring(secretsKey)
    // The value is a secret: name the problem, not the key.
    if ("fault" in keyring) errors.push(`${read.label("SECRETS_KEY")} must be ${keyring.fault} (value not shown)`)
  }
  const trustProxyValue = raw("TRUST_PROXY")
  const trustProxy = trustProxyValue === undefined ? TRUST_NO_PROXY : parseTrustProxy(trustProxyValue)
  if ("fault" in trustProxy) fail("TRUST_PROXY", trustProxy.fault, trustProxyValue ?? "")
  const disabled = parseDisabledParts(raw("SIGNCRAFT_DISABLE") ?? "")
  if ("fault" in disabled) fail("SIGNCRAFT_DISABLE", disabled.fault, raw("SIGNCRAFT_DISABLE") ?? "")
  const issValue = raw("OAUTH_ISS_PARAMETER") ?? "false"
  if (issValue !== "true" && issValue !== "false") fail("OAUTH_ISS_PARAMETER", "true or false", issValue)
  const corsOrigins = readCorsOrigins(raw("CORS_ORIGINS"), (value) => fail("CORS_ORIGINS", "`*` or a comma list of origins such as https://shop.example", value))

  if (
    errors.length > 0 || port === undefined || baseUrl === undefined || environment === undefined ||
    rateLimitPerKeyPerMinute === undefined || rateLimitPerIpPerMinute === undefined ||
    registrationLimitPerHour === undefined || registrationLimitPerDay === undefined || storefrontWritesPerStorePerMinute === undefined || retentionDays === undefined ||
    storefrontWritesPerAddressPerMinute === undefined || unusedClientCap === undefined ||
    webhookRetryBaseMs === undefined || mcp === "invalid"
  ) {
    return { _tag: "Invalid", errors }
  }

  const settings = defaultSettings({
    baseUrl,
    mcpUrl: mcp?.url,
    environment,
    operatorToken: operatorToken === undefined ? undefined : Redacted.make(operatorToken),
    metricsToken: metricsToken === undefined ? undefined : Redacted.make(metricsToken),
    rateLimitPerKeyPerMinute,
    rateLimitPerIpPerMinute,
    registrationLimitPerHour,
    registrationLimitPerDay,
    unusedClientCap,
    storefrontWritesPerStorePerMinute,
    storefrontWritesPerAddressPerMinute,
    retentionDays,
    webhookRetryBaseMs,
    corsOrigins,
    secretsKey,
    trustProxy: "fault" in trustProxy ? TRUST_NO_PROXY : trustProxy,
    disable: "fault" in disabled ? [] : disabled.parts,
    oauthIssParameter: issValue === "true"
  })
  // Production refuses to start without HTTPS, a SECRETS_KEY and a long operator token: each
  // would leave the deployment open (docs/configuration.md, production start-up guards).
  const faults = productionFaults(settings)
  if (faults.length > 0) return { _tag: "Invalid", errors: [...faults] }
  const database: DatabaseConfig = databaseUrl === undefined
    ? { _tag: "Embedded", location: { dataDir }, schema }
    : { _tag: "Postgres", url: databaseUrl, schema }
  const config: ServerConfig = {
    settings,
    port,
    host,
    database,
    ...(mcp === undefined ? {} : { mcp }),
    ...(logFormat === undefined ? {} : { logFormat }),
    ...(traces === undefined ? {} : { traces })
  }
  return { _tag: "Valid", config }
}
