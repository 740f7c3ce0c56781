import { parseArgs } from "node:util"
import { TRANSLATE_SOURCES, type TranslateSource } from "./commands/migrate-translate.js"
import type { ConfigVariable, EnvironmentVariables } from "./config.js"

/** What the command line asks for. */
export type Command =
  | { readonly _tag: "Help" }
  | {
    readonly _tag: "Serve"
    /** The environment with the flags laid over it. */
    readonly env: EnvironmentVariables
    /** Flag names to use in error messages for values that came from flags. */
    readonly labels: Partial<Record<ConfigVariable, string>>
  }
  | { readonly _tag: "Check"; readonly baseUrl: string; readonly json: boolean }
  | { readonly _tag: "DiagnoseRateLimit"; readonly baseUrl: string; readonly json: boolean }
  | {
    readonly _tag: "MigrateTranslate"
    readonly source: TranslateSource
    readonly paths: ReadonlyArray<string>
    readonly integrationId?: number
  }
  | { readonly _tag: "MigrateUsage"; readonly baseUrl: string; readonly storeId: string; readonly json: boolean }
  | { readonly _tag: "UsageError"; readonly message: string }

// Each flag mirrors one environment variable (docs/configuration.md) and wins over it.
const FLAGS = {
  port: "PORT",
  host: "HOST",
  "base-url": "BASE_URL",
  "data-dir": "DATA_DIR",
  "database-url": "DATABASE_URL",
  env: "SIGNCRAFT_ENV"
} as const satisfies Record<string, ConfigVariable>

/** The `signcraft --help` text. */
export const USAGE = `Usage: signcraft [serve] [options]
       signcraft check --base-url <url> [--json]
       signcraft diagnose rate-limit --base-url <url> [--json]
       signcraft migrate translate --from <format> [--integration-id <id>] <file or directory>...
       signcraft migrate usage --base-url <url> --store <id> [--json]

serve (the default command) starts the signcraft reference server.

check                 reads GET /api/v3/stores/me with SIGNCRAFT_API_KEY and prints the
                      Store's id, platform and scopes (exit 1 on failure)
diagnose rate-limit   runs the service's diagnostic rate-limit check with the test-mode key in
                      SIGNCRAFT_API_KEY, one line per call; exit 0 when it passes, 1 on a
                      deviation, 2 when refused before sending (live or missing key)
migrate translate     prints, one JSON line per file, the v3 request (method, path, body) a
                      v2-order, legacy-order, legacy-product or v2-pricing body becomes;
                      a directory means its .json files (progress on stderr); exit 1 on
                      unreadable or invalid input, naming the file and the field
migrate usage         lists, from the operator API (OPERATOR_TOKEN), the deprecated
                      operations each key of the Store still calls, with counts and last use

Results go to stdout, diagnostics to stderr; --json prints results as JSON.
check, diagnose and migrate usage take --base-url from SIGNCRAFT_BASE_URL when the flag is absent.

serve options (each overrides the environment variable named beside it):
  --port <port>          listen port                      PORT (8080)
  --host <address>       listen address                   HOST (127.0.0.1)
  --base-url <url>       public URL of the API (a path    BASE_URL (http://localhost:$PORT)
                         serves it only under that path)
  --data-dir <dir>       embedded database directory      DATA_DIR (./.data)
  --database-url <url>   PostgreSQL instead of embedded   DATABASE_URL
  --env <name>           development, test or production  SIGNCRAFT_ENV (development)
  -h, --help             show this help

Only from the environment: DATABASE_SCHEMA, OPERATOR_TOKEN, MCP_PORT, MCP_URL,
RATE_LIMIT_PER_KEY_PER_MINUTE, RATE_LIMIT_PER_IP_PER_MINUTE,
REGISTRATION_LIMIT_PER_HOUR, REGISTRATION_LIMIT_PER_DAY, WEBHOOK_RETRY_BASE_MS, CORS_ORIGINS,
SIGNCRAFT_DISABLE, OAUTH_ISS_PARAMETER, METRICS_TOKEN, LOG_FORMAT, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME.
`

/** What a usage error prints: the fault and where the help is, not the whole help. */
export const usageErrorText = (message: string): string => `signcraft: ${message}\nRun "signcraft --help" for usage.\n`

/** Reads the command line (without `node` and the script) over the given environment. */
export const parseCommandLine = (args: ReadonlyArray<string>, env: EnvironmentVariables): Command => {
  const [first] = args
  if (first === "check" || first === "diagnose" || first === "migrate") return parseClientCommand(args, env)
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    return { _tag: "UsageError", message: error instanceof Error ? error.message : String(error) }
  }
  if (parsed.values.help === true) return { _tag: "Help" }
  const [command, ...rest] = parsed.positionals
  if (command === "help") return { _tag: "Help" }
  if (command !== undefined && command !== "serve") return { _tag: "UsageError", message: `Unknown command "${command}"` }
  if (rest.length > 0) return { _tag: "UsageError", message: `Unexpected argument "${rest.join(" ")}"` }
  const overrides: Record<string, string> = {}
  const labels: Partial<Record<ConfigVariable, string>> = {}
  for (const [flag, variable] of Object.entries(FLAGS)) {
    const value = parsed.values[flag as keyof typeof FLAGS]
    if (typeof value === "string") {
      overrides[variable] = value
      labels[variable] = `--${flag}`
    }
  }
  return { _tag: "Serve", env: { ...env, ...overrides }, labels }
}

const parse = (args: ReadonlyArray<string>) =>
  parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "base-url": { type: "string" },
      "data-dir": { type: "string" },
      "database-url": { type: "string" },
      env: { type: "string" },
      help: { type: "boolean", short: "h" }
    }
  })

const usageError = (message: string): Command => ({ _tag: "UsageError", message })

// The integrator subcommands: each has its own flags, none of the server's. `--base-url` may come
// from SIGNCRAFT_BASE_URL, beside the key's SIGNCRAFT_API_KEY, so a script sets both once.
const parseClientCommand = (args: ReadonlyArray<string>, env: EnvironmentVariables): Command => {
  let parsed: ReturnType<typeof parseClient>
  try {
    parsed = parseClient(args)
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  if (values.help === true) return { _tag: "Help" }
  const [command, sub, ...rest] = positionals
  const json = values.json === true
  const fromEnv = env.SIGNCRAFT_BASE_URL?.trim() === "" ? undefined : env.SIGNCRAFT_BASE_URL
  const baseUrl = values["base-url"] ?? fromEnv
  const needBaseUrl = (make: (baseUrl: string) => Command): Command => {
    if (baseUrl === undefined) return usageError(`"${positionals.slice(0, 2).join(" ")}" needs --base-url or SIGNCRAFT_BASE_URL`)
    if (!URL.canParse(baseUrl)) {
      return usageError(`${values["base-url"] === undefined ? "SIGNCRAFT_BASE_URL" : "--base-url"} is not a URL: ${baseUrl}`)
    }
    return make(baseUrl)
  }
  const extra = (from: ReadonlyArray<string>) => usageError(`Unexpected argument "${from.join(" ")}"`)
  if (command === "check") {
    if (sub !== undefined) return extra([sub, ...rest])
    return needBaseUrl((url) => ({ _tag: "Check", baseUrl: url, json }))
  }
  if (command === "diagnose") {
    if (sub !== "rate-limit") return usageError(`Unknown diagnostic "${sub ?? ""}" (known: rate-limit)`)
    if (rest.length > 0) return extra(rest)
    return needBaseUrl((url) => ({ _tag: "DiagnoseRateLimit", baseUrl: url, json }))
  }
  if (sub === "usage") {
    if (rest.length > 0) return extra(rest)
    const storeId = values.store
    if (storeId === undefined) return usageError(`"migrate usage" needs --store`)
    return needBaseUrl((url) => ({ _tag: "MigrateUsage", baseUrl: url, storeId, json }))
  }
  if (sub === "translate") {
    const source = values.from
    if (source === undefined || !isTranslateSource(source)) {
      return usageError(`"migrate translate" needs --from ${TRANSLATE_SOURCES.join("|")}`)
    }
    if (rest.length === 0) return usageError(`"migrate translate" needs at least one file`)
    const rawId = values["integration-id"]
    if (rawId === undefined) return { _tag: "MigrateTranslate", source, paths: rest }
    const integrationId = Number(rawId)
    if (!/^\d+$/.test(rawId) || !Number.isSafeInteger(integrationId) || integrationId < 1) {
      return usageError(`--integration-id must be a positive integer, got ${rawId}`)
    }
    return { _tag: "MigrateTranslate", source, paths: rest, integrationId }
  }
  return usageError(`Unknown migrate command "${sub ?? ""}" (known: translate, usage)`)
}

const isTranslateSource = (value: string): value is TranslateSource => (TRANSLATE_SOURCES as ReadonlyArray<string>).includes(value)

const parseClient = (args: ReadonlyArray<string>) =>
  parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      "base-url": { type: "string" },
      json: { type: "boolean" },
      store: { type: "string" },
      from: { type: "string" },
      "integration-id": { type: "string" },
      help: { type: "boolean", short: "h" }
    }
  })
