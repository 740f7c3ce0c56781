import type { Connection } from "../../domain/oauth/connection.js"
import { readableInstant, readableOrNever } from "./dates.js"

/** A connected agent (a live connector grant) as the dashboard lists it. */
export interface AgentRowView {
  readonly id: number
  readonly name: string
  /** Where the client sends people back to: the host that really runs it, whatever its name says. */
  readonly host: string
  readonly scopes: ReadonlyArray<string>
  readonly created: string
  readonly lastUsed: string
}

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}

/**
 * A connection as the dashboard lists it. A client identified by a metadata document URL is named
 * by that URL's host; any other by the hosts of its redirect URIs.
 */
export const agentRowView = (connection: Connection): AgentRowView => {
  const hosts = connection.clientId.startsWith("https://")
    ? [hostOf(connection.clientId)]
    : connection.redirectUris.map(hostOf)
  return {
    id: connection.id,
    name: connection.clientName ?? connection.clientId,
    host: [...new Set(hosts.filter((host) => host !== undefined))].join(", ") || "unknown",
    scopes: connection.scopes,
    created: readableInstant(connection.createdAt),
    lastUsed: readableOrNever(connection.lastUsedAt)
  }
}
