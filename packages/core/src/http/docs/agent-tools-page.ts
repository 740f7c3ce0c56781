import type { Scope } from "../../domain/credentials/scopes.js"
import { code, docPage, prose } from "./pages.js"

/**
 * One tool of the agent endpoint as the documentation shows it: plain data, so the docs never
 * import the agent (the app hands the catalogue over).
 */
export interface ToolCatalogueEntry {
  readonly name: string
  readonly description: string
  readonly scopes: ReadonlyArray<Scope>
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
}

const yesNo = (value: boolean) => (value ? "yes" : "no")

/** `/docs/agent`: every tool of the agent endpoint with the scopes it needs and its hints. */
export const agentToolsPage = (baseUrl: string, tools: ReadonlyArray<ToolCatalogueEntry>): string =>
  docPage(
    baseUrl,
    "Agent tools",
    "<p>The tools of the agent (MCP) endpoint, in <code>tools/list</code> order. Each acts on the one Store its " +
      "connection was approved for, and needs every scope listed; a call without one answers a tool result with " +
      "<code>insufficient_scope</code>, <code>required_scopes</code> and <code>granted_scopes</code>, so the client " +
      "can ask the person for more (the connection then holds both). Every tool declares an " +
      "<code>outputSchema</code>: its <code>structuredContent</code> validates against it (an error result's too), " +
      "and its text content is the same JSON.</p>" +
      "<table><thead><tr><th>tool</th><th>scopes</th><th>read-only</th><th>destructive</th><th>idempotent</th>" +
      "<th>what it does</th></tr></thead><tbody>" +
      tools.map((tool) =>
        `<tr><td>${code(tool.name)}</td><td>${tool.scopes.map(code).join(" ")}</td><td>${yesNo(tool.readOnlyHint)}</td>` +
        `<td>${yesNo(tool.destructiveHint)}</td><td>${yesNo(tool.idempotentHint)}</td><td>${prose(tool.description)}</td></tr>`
      ).join("") +
      "</tbody></table>"
  )
