import { escapeHtml } from "../browser/html.js"
import { type DashboardPaths, STORE_SECTIONS, type StoreSection } from "./paths.js"

/**
 * The dashboard's Content-Security-Policy: its own stylesheet and script and nothing else, from no
 * other host; forms post only here; never framed.
 */
export const DASHBOARD_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "connect-src 'none'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** Who is signed in, and the token every form of theirs carries. */
export interface Viewer {
  readonly email: string
  readonly csrfToken: string
}

/** The Store a page belongs to, and which of its sections it is. */
export interface StoreContext {
  readonly id: number
  readonly name: string
  readonly section: StoreSection
}

/** Everything around a page's own content. */
export interface PageFrame {
  readonly title: string
  readonly paths: DashboardPaths
  readonly viewer?: Viewer
  readonly store?: StoreContext
}

/** A hidden form field. */
export const hiddenField = (name: string, value: string): string =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`

/** A form that posts to `action` with the viewer's anti-forgery token. */
export const postForm = (action: string, viewer: Viewer, content: string, attributes = ""): string =>
  `<form method="post" action="${escapeHtml(action)}"${attributes}>${hiddenField("csrf_token", viewer.csrfToken)}${content}</form>`

const header = (frame: PageFrame): string => {
  const who = frame.viewer === undefined ? "" : `<div class="who"><span>Signed in as <strong>${escapeHtml(frame.viewer.email)}</strong></span>${
    postForm(frame.paths.signOut, frame.viewer, `<button type="submit" class="secondary">Sign out</button>`)
  }</div>`
  return `<header class="top"><a class="brand" href="${escapeHtml(frame.paths.root)}">signcraft <span class="muted">dashboard</span></a>${who}</header>`
}

const sections = (frame: PageFrame): string => {
  const store = frame.store
  if (store === undefined) return ""
  const links = STORE_SECTIONS.map(({ slug, label }) =>
    `<li><a href="${escapeHtml(frame.paths.section(store.id, slug))}"${slug === store.section ? ` aria-current="page"` : ""}>${escapeHtml(label)}</a></li>`
  ).join("")
  return `<nav class="sections" aria-label="${escapeHtml(store.name)}"><ul>${links}</ul></nav>`
}

/** A whole dashboard page: header, the Store's sections, and `content` as its main region. */
export const dashboardPage = (frame: PageFrame, content: string): string => {
  const storeCrumb = frame.store === undefined
    ? ""
    : `<p class="crumb"><a href="${escapeHtml(frame.paths.root)}">Stores</a> / ${escapeHtml(frame.store.name)}</p>`
  const title = frame.store === undefined ? frame.title : `${frame.title} · ${frame.store.name}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · signcraft</title>
<link rel="stylesheet" href="${escapeHtml(frame.paths.stylesheet)}">
<script src="${escapeHtml(frame.paths.script)}" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
${header(frame)}${sections(frame)}
<main id="main" tabindex="-1">${storeCrumb}<h1>${escapeHtml(frame.title)}</h1>
${content}</main></body></html>`
}
