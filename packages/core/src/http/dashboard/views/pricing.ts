import type { CustomiserPricingView } from "../../../presenters/dashboard/pricing.js"
import { escapeHtml } from "../../browser/html.js"
import { dashboardPage, type StoreContext, type Viewer } from "../layout.js"
import type { DashboardPaths } from "../paths.js"
import { badge, cardTable } from "./table.js"

const customiserSection = (customiser: CustomiserPricingView, index: number): string =>
  `<section class="panel" aria-labelledby="customiser-${index}"><h2 id="customiser-${index}">${escapeHtml(customiser.name)}</h2>
<p>${badge("plain", customiser.model)} ${customiser.active ? badge("ok", "active") : badge("plain", "inactive")}</p>${
    customiser.sizes.length === 0
      ? `<p class="muted">No sizes yet.</p>`
      : cardTable("Sizes", ["Size", "Dimensions", "Limits"], customiser.sizes.map((s) => [escapeHtml(s.name), escapeHtml(s.dimensions), escapeHtml(s.limits)]))
  }${
    customiser.priceLists.length === 0
      ? `<p class="muted">No price lists yet.</p>`
      : customiser.priceLists.map((list) => cardTable(`Price list: ${list.name}`, list.columns, list.rows.map((row) => row.map(escapeHtml)))).join("")
  }</section>`

/** Each customiser's pricing, read-only, in the Store's currency. */
export const pricingView = (
  paths: DashboardPaths,
  viewer: Viewer,
  store: StoreContext,
  currency: string,
  customisers: ReadonlyArray<CustomiserPricingView>
): string =>
  dashboardPage(
    { title: "Pricing", paths, viewer, store },
    `<p class="muted">Prices in ${escapeHtml(currency)}. Pricing is changed through the API (<code>PUT /api/v3/customisers/{id}/pricing</code>).</p>${
      customisers.length === 0 ? `<p class="panel">This Store has no customisers yet.</p>` : customisers.map(customiserSection).join("")
    }`
  )
