import { Effect, Result, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { NotFound } from "../../domain/errors.js"
import { Settings } from "../../services/settings.js"
import { withPageHeaders } from "../browser/page-headers.js"
import { ResourceIdParam } from "../resource-id.js"
import { DASHBOARD_POLICY } from "./layout.js"
import { dashboardPaths } from "./paths.js"

/** A dashboard page: HTML under the dashboard's policy, never cached. */
export const htmlPage = (html: string, status = 200) =>
  HttpServerResponse.html(html).pipe(HttpServerResponse.setStatus(status), withPageHeaders(DASHBOARD_POLICY))

/** After a form: back to a page with a GET (303), so reloading it never posts again. */
export const seeOther = (location: string) =>
  HttpServerResponse.redirect(location, { status: 303, headers: { "cache-control": "no-store" } })

/** The dashboard's paths for this deployment. */
export const currentPaths = Effect.map(Effect.service(Settings), (settings) => dashboardPaths(settings.baseUrl))

/**
 * The id in path parameter `name`: a segment that is not a decimal id names nothing, so it is not
 * found, like an unknown id.
 */
export const pathId = (name: string, resource: string) =>
  Effect.flatMap(HttpRouter.params, (params) => {
    const decoded = Schema.decodeUnknownResult(ResourceIdParam(resource))(params[name])
    return Result.isSuccess(decoded) ? Effect.succeed(Number(decoded.success)) : Effect.fail(new NotFound({ resource }))
  })
