import type { AgentRowView } from "../../../presenters/dashboard/agents.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, postForm, type StoreContext, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"
import { cardTable, notice, scopeList } from "./table.js"

/** The agents connected to a Store (live connector grants). */
export const agentsView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  agents: ReadonlyArray<AgentRowView>,
  message?: string
): string =>
  dashboardPage(
    { title: "Connected agents", paths, viewer, store },
    `${notice(message)}<section class="panel" aria-labelledby="agents"><h2 id="agents">Agents with access</h2>${
      agents.length === 0
        ? `<p class="muted">No agent is connected to this Store.</p>`
        : cardTable(
          "Apps a person of your company connected through the consent screen.",
          ["Agent", "Host", "Scopes", "Connected", "Last used", ""],
          agents.map((a) => [
            `<strong>${escapeHtml(a.name)}</strong>`,
            `<span class="mono">${escapeHtml(a.host)}</span>`,
            scopeList(a.scopes),
            escapeHtml(a.created),
            escapeHtml(a.lastUsed),
            `<a class="button secondary" href="${escapeHtml(paths.revokeAgent(store.id, a.id))}">Revoke<span class="vh"> ${escapeHtml(a.name)}</span></a>`
          ])
        )
    }</section>`
  )

/** The confirmation before an agent's access is revoked. */
export const revokeAgentView = (paths: DashboardPaths, viewer: Viewer, store: StoreContext, agent: AgentRowView): string =>
  dashboardPage(
    { title: "Revoke this agent?", paths, viewer, store },
    `<div class="panel"><p><strong>${escapeHtml(agent.name)}</strong> (${escapeHtml(agent.host)}) will lose access to this Store at once: its tokens stop working, and it must be connected again to come back.</p>${
      postForm(
        paths.revokeAgent(store.id, agent.id),
        viewer,
        `<div class="actions"><button type="submit" class="danger">Revoke access</button><a class="button secondary" href="${
          escapeHtml(paths.section(store.id, "agents"))
        }">Cancel</a></div>`
      )
    }</div>`
  )
