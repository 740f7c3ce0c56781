import { SCOPE_DESCRIPTIONS } from "../../../domain/credentials/scope-descriptions.js"
import { SCOPES } from "../../../domain/credentials/scopes.js"
import type { KeyRowView } from "../../../presenters/dashboard/keys.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, postForm, type StoreContext, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"
import { badge, cardTable, notice, scopeList } from "./table.js"

/** What the keys page shows besides the list: a key just created (its secret, once) or a notice. */
export interface KeysPageExtras {
  readonly created?: { readonly key: string; readonly mode: string }
  readonly notice?: string
}

const keyTable = (paths: DashboardPaths, storeId: number, keys: ReadonlyArray<KeyRowView>): string =>
  keys.length === 0
    ? `<p class="muted">This Store has no API keys yet.</p>`
    : cardTable(
      "Keys that work now; revoked keys are not listed.",
      ["Key", "Mode", "Scopes", "Created", "Last used", ""],
      keys.map((key) => [
        `<code>${escapeHtml(key.prefix)}…</code>`,
        badge(key.mode === "live" ? "warn" : "plain", key.mode),
        key.legacyWildcard ? `All (legacy wildcard key)` : scopeList(key.scopes),
        escapeHtml(key.created),
        escapeHtml(key.lastUsed),
        `<a class="button secondary" href="${escapeHtml(paths.revokeKey(storeId, key.id))}">Revoke<span class="vh"> ${
          escapeHtml(key.prefix)
        }</span></a>`
      ])
    )

const createForm = (paths: DashboardPaths, storeId: number, viewer: Viewer): string =>
  postForm(
    paths.section(storeId, "keys"),
    viewer,
    `<fieldset><legend>Mode</legend><div class="choices">
<label><input type="radio" name="mode" value="test" checked> Test</label>
<label><input type="radio" name="mode" value="live"> Live</label></div></fieldset>
<fieldset><legend>Scopes</legend><div class="choices">${
      SCOPES.map((scope) =>
        `<label><input type="checkbox" name="scope" value="${scope}"> <span><code>${scope}</code><br><span class="muted">${
          escapeHtml(SCOPE_DESCRIPTIONS[scope])
        }</span></span></label>`
      ).join("")
    }</div></fieldset>
<div class="actions"><button type="submit">Create key</button></div>`
  )

const createdPanel = (created: { readonly key: string; readonly mode: string }): string =>
  `<div class="panel" role="status"><h2>Your new ${escapeHtml(created.mode)} key</h2>
<p>Copy it now: this is the only time signcraft shows it. Store it somewhere safe, such as your platform's secret manager.</p>
<div class="secret"><label for="new-key" class="vh">New API key</label><input id="new-key" type="text" readonly value="${
    escapeHtml(created.key)
  }" data-copy></div></div>`

/** The API keys of a Store: the key just created (if any), the list, and the form for a new one. */
export const keysView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  keys: ReadonlyArray<KeyRowView>,
  extras: KeysPageExtras = {}
): string =>
  dashboardPage(
    { title: "API keys", paths, viewer, store },
    `${notice(extras.notice)}${extras.created === undefined ? "" : createdPanel(extras.created)}
<section class="panel" aria-labelledby="keys-list"><h2 id="keys-list">Keys</h2>${keyTable(paths, store.id, keys)}</section>
<section class="panel" aria-labelledby="keys-new"><h2 id="keys-new">Create a key</h2>
<p class="muted">Give a key only the scopes its integration needs. Test keys never touch live data.</p>${createForm(paths, store.id, viewer)}</section>`
  )

/** The confirmation before a key is revoked. */
export const revokeKeyView = (paths: DashboardPaths, viewer: Viewer, store: StoreContext, key: KeyRowView): string =>
  dashboardPage(
    { title: "Revoke this key?", paths, viewer, store },
    `<div class="panel"><p>The key <code>${escapeHtml(key.prefix)}…</code> (${escapeHtml(key.mode)}, last used ${
      escapeHtml(key.lastUsed)
    }) will stop working at once: every request made with it is refused from then on. This cannot be undone.</p>${
      postForm(
        paths.revokeKey(store.id, key.id),
        viewer,
        `<div class="actions"><button type="submit" class="danger">Revoke key</button><a class="button secondary" href="${
          escapeHtml(paths.section(store.id, "keys"))
        }">Cancel</a></div>`
      )
    }</div>`
  )
