import { HttpServerResponse } from "effect/http"
import { DASHBOARD_JS } from "./script.js"
import { DASHBOARD_CSS } from "./stylesheet.js"

// An hour: the files change only with a new release, and a stale copy still works with the pages.
const CACHE = "public, max-age=3600"

/** GET /dashboard/assets/dashboard.css: the one stylesheet. */
export const stylesheet = HttpServerResponse.text(DASHBOARD_CSS, {
  contentType: "text/css; charset=utf-8",
  headers: { "cache-control": CACHE, "x-content-type-options": "nosniff" }
})

/** GET /dashboard/assets/dashboard.js: the one script (copy buttons, the chart's readout). */
export const script = HttpServerResponse.text(DASHBOARD_JS, {
  contentType: "text/javascript; charset=utf-8",
  headers: { "cache-control": CACHE, "x-content-type-options": "nosniff" }
})
