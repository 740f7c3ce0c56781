import { PROBLEM_CODES, type ProblemCode, describeFailure } from "../../presenters/failure-table.js"
import type { RequestInfo } from "../request-info.js"
import { problemBody } from "../respond.js"
import { PROBLEM_GUIDES } from "./problem-guides.js"

/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** Escaped text with its backtick-quoted spans set as `<code>`. */
export const prose = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>")

/** Escaped text as one `<code>` span. */
export const code = (text: string): string => `<code>${escapeHtml(text)}</code>`

/** Escaped text as a preformatted block. */
export const pre = (text: string): string => `<pre><code>${escapeHtml(text)}</code></pre>`

const STYLE = "body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5}" +
  "pre{background:#f5f5f5;padding:1rem;overflow:auto}code{background:#f5f5f5;padding:0 .2rem}" +
  "nav a{margin-right:1rem}td,th{padding:.25rem .75rem;border-bottom:1px solid #ddd;text-align:left}"

/** A self-contained documentation page: no scripts, styles inline, nothing from other hosts. */
export const docPage = (baseUrl: string, title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${escapeHtml(title)} · signcraft</title><style>${STYLE}</style></head><body>` +
  `<nav><a href="${baseUrl}/docs">API reference</a><a href="${baseUrl}/docs/problems">Problems</a>` +
  `<a href="${baseUrl}/docs/migration">Migrating from v2</a><a href="${baseUrl}/docs/webhooks">Webhooks</a></nav>` +
  `<h1>${escapeHtml(title)}</h1>${body}</body></html>`

const EXAMPLE_REQUEST: RequestInfo = {
  requestId: "req_4bX0aQvH2mZ8yN6kLp3sT1wE",
  generation: "v3",
  baseUrl: "",
  selfUrl: "",
  clientIp: "",
  responseHeaders: new Map(),
  faults: []
}

/** The page of one problem code: meaning, status, when it happens, how to recover, an example. */
export const problemPage = (baseUrl: string, code: ProblemCode): string => {
  const guide = PROBLEM_GUIDES[code]
  const description = describeFailure(guide.example)
  const example = JSON.stringify(problemBody(description, { ...EXAMPLE_REQUEST, baseUrl }), null, 2)
  return docPage(
    baseUrl,
    `${description.title} (${code})`,
    `<p><strong>HTTP ${description.status}</strong> · <code>application/problem+json</code> · <code>code: "${code}"</code></p>` +
      `<h2>Meaning</h2><p>${prose(guide.meaning)}</p>` +
      `<h2>When it happens</h2><p>${prose(guide.when)}</p>` +
      `<h2>How to recover</h2><p>${prose(guide.recover)}</p>` +
      `<h2>Example</h2><pre><code>${escapeHtml(example)}</code></pre>`
  )
}

/** The index of problem codes. */
export const problemIndexPage = (baseUrl: string): string =>
  docPage(
    baseUrl,
    "Problem types",
    "<p>Every v3, storefront and operator error is an RFC 9457 problem document served as " +
      "<code>application/problem+json</code>. Branch on <code>code</code>, never on <code>title</code> or " +
      "<code>detail</code>; the <code>type</code> member links to the code's page.</p><table><thead><tr><th>code</th>" +
      "<th>status</th><th>meaning</th></tr></thead><tbody>" +
      PROBLEM_CODES.map((code) => {
        const guide = PROBLEM_GUIDES[code]
        return `<tr><td><a href="${baseUrl}/docs/problems/${code}"><code>${code}</code></a></td><td>${
          describeFailure(guide.example).status
        }</td><td>${prose(guide.meaning)}</td></tr>`
      }).join("") + "</tbody></table>"
  )
