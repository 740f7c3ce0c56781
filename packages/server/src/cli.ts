import { parseArgs } from "node:util"
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
  | { readonly _tag: "UsageError"; readonly message: string }

// Each flag mirrors one variable of operating contract §1 and wins over it.
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

Starts the signcraft reference server (the default command).

Options (each overrides the environment variable named beside it):
  --port <port>          listen port                      PORT (8080)
  --host <address>       listen address                   HOST (127.0.0.1)
  --base-url <url>       public origin of the API         BASE_URL (http://localhost:$PORT)
  --data-dir <dir>       embedded database directory      DATA_DIR (./.data)
  --database-url <url>   PostgreSQL instead of embedded   DATABASE_URL
  --env <name>           development, test or production  SIGNCRAFT_ENV (development)
  -h, --help             show this help

Only from the environment: OPERATOR_TOKEN, MCP_PORT, MCP_URL,
RATE_LIMIT_PER_KEY_PER_MINUTE, RATE_LIMIT_PER_IP_PER_MINUTE,
REGISTRATION_LIMIT_PER_HOUR, REGISTRATION_LIMIT_PER_DAY, WEBHOOK_RETRY_BASE_MS.
`

/** Reads the command line (without `node` and the script) over the given environment. */
export const parseCommandLine = (args: ReadonlyArray<string>, env: EnvironmentVariables): Command => {
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
