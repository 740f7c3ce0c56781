import { escapeHtml } from "../../browser/html.js"

/**
 * A table whose cells carry their column's name, so on a narrow screen each row reads as a card of
 * labelled values. Cells are HTML already escaped by the caller.
 */
export const cardTable = (caption: string, headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  `<table class="cards"><caption class="muted">${escapeHtml(caption)}</caption><thead><tr>${
    headers.map((header) => `<th scope="col">${escapeHtml(header)}</th>`).join("")
  }</tr></thead><tbody>${
    rows.map((cells) => `<tr>${cells.map((cell, index) => `<td data-label="${escapeHtml(headers[index] ?? "")}">${cell}</td>`).join("")}</tr>`)
      .join("")
  }</tbody></table>`

/** A coloured label. */
export const badge = (tone: "ok" | "warn" | "bad" | "plain", text: string): string =>
  `<span class="badge${tone === "plain" ? "" : ` ${tone}`}">${escapeHtml(text)}</span>`

/** Scope names as code, comma separated. */
export const scopeList = (scopes: ReadonlyArray<string>): string => scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(", ")

/** A notice at the top of a page after an action. */
export const notice = (text: string | undefined): string =>
  text === undefined ? "" : `<p class="notice" role="status">${escapeHtml(text)}</p>`
