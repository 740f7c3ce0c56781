import type { ConnectableStore } from "../../../services/oauth/sessions.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, hiddenField, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"

/** The sign-in page: `Email`, `Password`, `Sign in`, the same accounts as the consent screen. */
export const signInView = (paths: DashboardPaths, csrfToken: string, error?: string): string =>
  dashboardPage(
    { title: "Sign in", paths },
    `<div class="panel narrow"><p>Sign in with the email and password of your signcraft account to manage your Stores.</p>
<form method="post" action="${escapeHtml(paths.signIn)}">${hiddenField("csrf_token", csrfToken)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${error === undefined ? "" : `<p class="alert" role="alert">${escapeHtml(error)}</p>`}
<div class="actions"><button type="submit">Sign in</button></div></form></div>`
  )

/** The Stores of the person's companies. */
export const storesView = (paths: DashboardPaths, viewer: Viewer, stores: ReadonlyArray<ConnectableStore>): string =>
  dashboardPage(
    { title: "Your Stores", paths, viewer },
    stores.length === 0
      ? `<p class="panel">You do not belong to a company with a Store yet. Ask your operator to add you to one.</p>`
      : `<ul class="stores">${
        stores.map((store) =>
          `<li><a href="${escapeHtml(paths.section(store.id, "keys"))}"><strong>${escapeHtml(store.name)}</strong><br><span class="muted">${
            escapeHtml(store.companyName)
          }</span></a></li>`
        ).join("")
      }</ul>`
  )
