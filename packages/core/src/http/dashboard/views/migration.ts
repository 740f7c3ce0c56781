import type { KeyMigrationView } from "../../../presenters/dashboard/migration.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, type StoreContext, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"
import { badge, cardTable } from "./table.js"

/** Which keys still call the previous generation, before its Sunset. */
export const migrationView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  keys: ReadonlyArray<KeyMigrationView>,
  sunset: string
): string =>
  dashboardPage(
    { title: "Migration", paths, viewer, store },
    `<div class="panel"><p>The previous API generation (v2 and unversioned paths) is deprecated and may be removed on <strong>${
      escapeHtml(sunset)
    }</strong>. Move each key below to <code>/api/v3</code>: the <a href="${
      escapeHtml(paths.migrationGuide)
    }">migration guide</a> maps every deprecated operation to its replacement.</p></div>
<section class="panel" aria-labelledby="callers"><h2 id="callers">Keys still calling deprecated operations</h2>${
      keys.length === 0
        ? `<p>${badge("ok", "Nothing to migrate")} No key of this Store has called a deprecated operation.</p>`
        : cardTable(
          "Counted per key since it was created.",
          ["Key", "Deprecated operation", "Calls", "Last call"],
          keys.flatMap((key) =>
            key.calls.map((call) => [
              `<code>${escapeHtml(key.key)}${key.revoked ? "" : "…"}</code>${key.revoked ? ` ${badge("plain", "revoked")}` : ""}`,
              `<code>${escapeHtml(call.operation)}</code>`,
              String(call.count),
              escapeHtml(call.lastUsed)
            ])
          )
        )
    }</section>`
  )
