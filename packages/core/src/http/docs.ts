import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { tryItKeyFor } from "../domain/deployment/docs-try-it.js"
import { NotFound } from "../domain/errors.js"
import { type ServiceSettings, Settings } from "../services/settings.js"
import { openApiDocument, operatorDocsApi, operatorOpenApiDocument, publicDocsApi } from "./docs/documents.js"
import { agentToolsPage, type ToolCatalogueEntry } from "./docs/agent-tools-page.js"
import { migrationPage } from "./docs/migration-page.js"
import { problemIndexPage, problemPage } from "./docs/pages.js"
import { securePage } from "./docs/page-security.js"
import { webhooksPage } from "./docs/webhooks-page.js"
import { bearerOf, makeOperatorTokenCheck } from "./middleware/operator-token.js"
import { PROBLEM_CODES, type ProblemCode } from "../presenters/failure-table.js"
import type { RouteEntry } from "./route-table.js"

export { openApiDocument } from "./docs/documents.js"
export type { ToolCatalogueEntry } from "./docs/agent-tools-page.js"

// Scalar renders the reference in the browser from the document inlined in the page. Its
// defaults load fonts from its own host and report telemetry; the page must work offline and
// talk to no host but this one.
const scalar = {
  withDefaultFonts: false,
  telemetry: false,
  defaultOpenAllTags: true,
  hideClientButton: true
} as const

// Scalar's configuration for a key it fills into the try-it console and the generated snippets
// (`authentication.securitySchemes.<scheme>.token`), with that scheme chosen.
const withTryItKey = (key: string | undefined) => {
  if (key === undefined) return scalar
  const authentication = { preferredSecurityScheme: "apiKey", securitySchemes: { apiKey: { token: key } } }
  return { ...scalar, authentication }
}

const PUBLIC_PAGES = ["/docs", "/docs/problems", "/docs/problems/:code", "/docs/migration", "/docs/webhooks", "/docs/agent"] as const
const OPERATOR_PAGES = ["/docs/operator", "/docs/operator/openapi.json"] as const
const OPENAPI_PATH = "/api/v3/openapi.json" as const

/** The documentation routes (method and path), for 405 answers; the operator's only when it is served. */
export const docsRouteTable = (settings: ServiceSettings): ReadonlyArray<RouteEntry> =>
  [OPENAPI_PATH, ...PUBLIC_PAGES, ...(settings.operatorToken === undefined ? [] : OPERATOR_PAGES)].map((path): RouteEntry => ({
    method: "GET",
    path
  }))

const html = (page: string) => HttpServerResponse.text(page, { contentType: "text/html; charset=utf-8" })
const json = (document: unknown) => HttpServerResponse.text(JSON.stringify(document), { contentType: "application/json" })

const isProblemCode = (code: string): code is ProblemCode => (PROBLEM_CODES as ReadonlyArray<string>).includes(code)

/**
 * `/api/v3/openapi.json`, the interactive reference at `/docs` (Scalar, inline, offline), the
 * problem type pages, the migration guide, the webhooks guide and the agent's tool catalogue
 * (`tools`); with `OPERATOR_TOKEN` set, the operator API's reference at `/docs/operator`,
 * answered only to that token like the operator API. `tryItKey` is filled into the reference's
 * console where {@link tryItKeyFor} allows it.
 */
export const layerDocsWith = (tools: ReadonlyArray<ToolCatalogueEntry>, tryItKey?: string) => Layer.unwrap(Effect.gen(function*() {
  const settings = yield* Settings
  const { baseUrl } = settings
  const problems = new Map(PROBLEM_CODES.map((code) => [code, html(problemPage(baseUrl, code))]))
  const problemRoute = HttpRouter.add(
    "GET",
    "/docs/problems/:code",
    Effect.flatMap(HttpRouter.params, (params) => {
      const code = params.code ?? ""
      const page = isProblemCode(code) ? problems.get(code) : undefined
      return page === undefined ? Effect.fail(new NotFound({ resource: "problem type" })) : Effect.succeed(page)
    })
  )
  // Every page carries its CSP; the operator's pages answer only the operator token.
  const securePages = HttpRouter.middleware((httpEffect) => Effect.map(httpEffect, securePage)).layer
  const checkOperatorToken = yield* makeOperatorTokenCheck
  const operatorOnly = HttpRouter.middleware((httpEffect) =>
    Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
      return Effect.andThen(checkOperatorToken(bearerOf(request.headers.authorization)), httpEffect)
    })
  ).layer
  const operator = settings.operatorToken === undefined ? [] : [
    Layer.mergeAll(
      HttpApiScalar.layer(operatorDocsApi(baseUrl), { path: "/docs/operator", scalar }),
      HttpRouter.add("GET", "/docs/operator/openapi.json", json(operatorOpenApiDocument(baseUrl)))
    ).pipe(Layer.provide(securePages), Layer.provide(operatorOnly))
  ]
  return Layer.mergeAll(
    HttpApiScalar.layer(publicDocsApi(baseUrl, settings.disable), {
      path: "/docs",
      scalar: withTryItKey(tryItKeyFor(settings, tryItKey))
    }).pipe(Layer.provide(securePages)),
    HttpRouter.add("GET", OPENAPI_PATH, json(openApiDocument(baseUrl, settings.disable))),
    HttpRouter.add("GET", "/docs/problems", html(problemIndexPage(baseUrl))),
    problemRoute,
    HttpRouter.add("GET", "/docs/migration", html(migrationPage(baseUrl))),
    HttpRouter.add("GET", "/docs/webhooks", html(webhooksPage(baseUrl, settings.webhookRetryBaseMs))),
    HttpRouter.add("GET", "/docs/agent", html(agentToolsPage(baseUrl, tools))),
    ...operator
  )
}))
