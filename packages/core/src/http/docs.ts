import { Effect, Layer, Schema } from "effect"
import { PricingDocumentV3 } from "../domain/pricing/schema-v3.js"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { OpenApi } from "effect/http-api"
import { SigncraftApi } from "./api/index.js"
import { PROBLEM_CODES } from "../presenters/failure-table.js"
import { Settings } from "../services/settings.js"
import type { RouteEntry } from "./route-table.js"

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

type Operation = { readonly summary?: string; readonly description?: string; readonly operationId?: string }

// Pricing writes are decoded by the pricing validator (it needs the stored customiser), so their
// endpoint payload is opaque JSON; the document still shows the schema that validator enforces,
// undeclared members refused included.
const pricingWriteSchema = Schema.toJsonSchemaDocument(PricingDocumentV3, { onExcessProperty: "error" }).schema
const PRICING_BODY_COMPONENTS = ["PricingDocumentWrite", "PricingMergePatch"]

/** The OpenAPI 3.1 document, generated from the same schemas that validate requests. */
export const openApiDocument = (baseUrl: string) => {
  const spec = OpenApi.fromApi(SigncraftApi)
  const schemas: Record<string, unknown> = { ...spec.components.schemas }
  for (const name of PRICING_BODY_COMPONENTS) {
    if (name in schemas) schemas[name] = pricingWriteSchema
  }
  return { ...spec, components: { ...spec.components, schemas }, servers: [{ url: baseUrl }] }
}

// A self-contained reference page (no scripts, no CDN): the operations, then the problem codes.
const referencePage = (baseUrl: string): string => {
  const spec = openApiDocument(baseUrl)
  const rows: Array<string> = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (typeof op !== "object" || op === null) continue
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${
          escapeHtml(op.summary ?? op.operationId ?? "")
        }</td></tr>`
      )
    }
  }
  const problems = PROBLEM_CODES.map((code) => `<li id="${code}"><code>${code}</code></li>`).join("")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>signcraft API reference</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}td{padding:.25rem .75rem;border-bottom:1px solid #ddd}</style>
</head><body><h1>signcraft API reference</h1>
<p>Machine-readable: <a href="${baseUrl}/api/v3/openapi.json">OpenAPI 3.1 document</a>.</p>
<h2>Operations</h2><table><tbody>${rows.join("")}</tbody></table>
<h2 id="problems">Problem codes</h2><p>Every v3 error is an <code>application/problem+json</code> document; branch on <code>code</code>.</p><ul>${problems}</ul>
<h2 id="migration">Migrating from v2</h2><p>The v2 and unversioned operations are deprecated since 22 July 2026 and sunset on 22 January 2027. Move reads first, then writes, one generation per logical write, with an <code>Idempotency-Key</code> on every v3 write.</p>
</body></html>`
}

// The reference page and its sub-pages (problem types, migration guide).
const PAGE_PATHS = ["/docs", "/docs/problems", "/docs/migration"] as const
const OPENAPI_PATH = "/api/v3/openapi.json" as const

/** The documentation routes (method and path), for 405 answers. */
export const docsRouteTable: ReadonlyArray<RouteEntry> = [OPENAPI_PATH, ...PAGE_PATHS].map((path): RouteEntry => ({ method: "GET", path }))

/** `/api/v3/openapi.json`, `/docs` and its sub-pages (problem types, migration guide). */
export const layerDocs = Layer.unwrap(Effect.gen(function*() {
  const settings = yield* Settings
  const json = JSON.stringify(openApiDocument(settings.baseUrl))
  const html = referencePage(settings.baseUrl)
  const page = HttpServerResponse.text(html, { contentType: "text/html; charset=utf-8" })
  return Layer.mergeAll(
    HttpRouter.add("GET", OPENAPI_PATH, HttpServerResponse.text(json, { contentType: "application/json" })),
    ...PAGE_PATHS.map((path) => HttpRouter.add("GET", path, page))
  )
}))
