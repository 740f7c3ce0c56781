import { resolve } from "node:path"
import { type DatabaseConfig, oauth } from "@signcraft/core"
import { Option } from "effect"
import type { ServerConfig } from "./config.js"
import type { DemoData } from "./demo-data.js"

const describeLocation = (database: DatabaseConfig, cwd: string): string => {
  if (database._tag === "Embedded") {
    return database.location === "memory" ? "embedded, in memory" : `embedded, ${resolve(cwd, database.location.dataDir)}`
  }
  try {
    const url = new URL(database.url)
    const user = url.username === "" ? "" : `${decodeURIComponent(url.username)}@`
    // Only user, host, port and database: the password and query options may hold secrets.
    return `postgres, ${user}${url.host}${url.pathname}`
  } catch {
    return "postgres"
  }
}

/** Names the database for people: the embedded directory, or the server without its password; and the schema. */
export const describeDatabase = (database: DatabaseConfig, cwd: string = process.cwd()): string => {
  const where = describeLocation(database, cwd)
  return database.schema === undefined ? where : `${where}, schema ${database.schema}`
}

/** The lines printed once the server accepts requests; the demo key appears only here. */
export const bannerLines = (
  listenUrl: string,
  config: ServerConfig,
  demo: Option.Option<DemoData>
): ReadonlyArray<string> => {
  const { settings } = config
  const lines = [
    `signcraft listening on ${listenUrl} (${settings.environment})`,
    `  base URL       ${settings.baseUrl}`,
    `  documentation  ${settings.disable.includes("docs") ? "off (SIGNCRAFT_DISABLE)" : `${settings.baseUrl}/docs`}`,
    `  agent (MCP)    ${
      settings.disable.includes("agent") ? "off (SIGNCRAFT_DISABLE)" : oauth.agentLocation(settings.baseUrl, settings.mcpUrl).resource
    }`,
    `  database       ${describeDatabase(config.database)}`,
    `  operator API   ${settings.operatorToken === undefined ? "off (OPERATOR_TOKEN is not set)" : `${settings.baseUrl}/operator/v1`}`,
    `  secrets        ${
      settings.secretsKey === undefined
        ? "sealed with a fixed development key (SECRETS_KEY is not set; production requires it)"
        : "sealed with SECRETS_KEY (AES-256-GCM)"
    }`
  ]
  if (Option.isSome(demo)) {
    const data = demo.value
    lines.push(
      "Demo data created (shown only this once):",
      `  API key        ${data.apiKey}  (test mode, every scope, store ${data.storeId})`,
      `  try it         curl -H "Authorization: Bearer ${data.apiKey}" ${settings.baseUrl}/api/v3/stores/me`
    )
    if (data.person !== undefined) lines.push(`  sign in        ${data.person.email} / ${data.person.password}`)
  }
  return lines
}
