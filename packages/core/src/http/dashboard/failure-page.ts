import type { FailureDescription } from "../../presenters/failure-table.js"
import { escapeHtml } from "../browser/html.js"
import { dashboardPage } from "./layout.js"
import { dashboardPaths } from "./paths.js"

const headings: Readonly<Record<number, string>> = {
  404: "Not found",
  429: "Too many requests"
}

/** A failure of a dashboard request as a page: what went wrong, each faulty field, and a way back. */
export const dashboardFailurePage = (d: FailureDescription, baseUrl: string): string => {
  const paths = dashboardPaths(baseUrl)
  // Each fault named by its field, as the form's labels name them.
  const fields = (d.errors ?? []).map((e) => {
    const field = e.pointer?.replace(/^\//, "") ?? e.parameter ?? ""
    return `<li>${field === "" ? "" : `<strong>${escapeHtml(field)}</strong>: `}${escapeHtml(e.detail)}</li>`
  }).join("")
  const content = `<div class="panel"><p class="alert" role="alert">${escapeHtml(d.detail)}</p>${
    fields === "" ? "" : `<ul>${fields}</ul>`
  }<p><a href="${escapeHtml(paths.root)}">Back to your Stores</a></p></div>`
  return dashboardPage({ title: headings[d.status] ?? d.title, paths }, content)
}
