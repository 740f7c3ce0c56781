import { Context, Effect, Layer, Scope, Tracer } from "effect"
import { HttpMiddleware, HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { SigncraftApi } from "./http/api/index.js"
import { layerDocsWith, type ToolCatalogueEntry } from "./http/docs.js"
import { OperatorHandlers } from "./http/handlers/operator.js"
import { SystemHandlers } from "./http/handlers/system.js"
import { V2CustomisersHandlers } from "./http/handlers/v2-customisers.js"
import { V3CustomisersHandlers } from "./http/handlers/v3-customisers.js"
import { V3StoresHandlers } from "./http/handlers/v3-stores.js"
import { LegacyCommerceHandlers } from "./http/handlers/legacy-commerce.js"
import { OperatorCommerceHandlers } from "./http/handlers/operator-commerce.js"
import { StorefrontDesignsHandlers } from "./http/handlers/storefront-designs.js"
import { V3AnalyticsHandlers } from "./http/handlers/v3-analytics.js"
import { V3CommerceHandlers } from "./http/handlers/v3-commerce.js"
import { StorefrontFormsHandlers } from "./http/handlers/storefront-forms.js"
import { V2WebhooksHandlers } from "./http/handlers/v2-webhooks.js"
import { V3QuotesHandlers } from "./http/handlers/v3-quotes.js"
import { V3EventsHandlers } from "./http/handlers/v3-events.js"
import { V3WebhooksHandlers } from "./http/handlers/v3-webhooks.js"
import { ApiKeyAuth, RequestFailures } from "./http/middleware/definitions.js"
import {
  layerApiKeyAuth,
  layerIdempotentWrites,
  layerLegacyApiKeyAuth,
  layerOperatorAuth,
  layerLegacyRequestFailures,
  layerPublicAccess,
  layerRequestFailures
} from "./http/middleware/implementations.js"
import { layerRouterMiddleware, type RequestLogger } from "./http/router-middleware.js"
import { agentTools } from "./agent/tools/index.js"
import { agentLocation } from "./domain/oauth/metadata.js"
import { agentRouteTable, layerAgentRoutes } from "./app/agent-routes.js"
import { docsRouteTable } from "./http/docs.js"
import { layerOAuthRoutes, oauthRouteTable } from "./http/oauth/routes.js"
import { dashboardRouteTable, layerDashboardRoutes } from "./http/dashboard/routes.js"
import { apiRouteTable, makeRouteTemplateOf, type RouteEntry, UNMATCHED_ROUTE } from "./http/route-table.js"
import { Credentials } from "./services/credentials/credentials.js"
import { CursorKey } from "./services/credentials/cursor-key.js"
import { Customisers } from "./services/pricing/customisers.js"
import { type FastReadsSlot, makeFastReads } from "./http/fast-reads.js"
import { layerMetricsRoute, metricsRouteTable } from "./http/metrics-route.js"
import { makeMetrics, Metrics, type MetricsRecorder } from "./services/operations/metrics.js"
import { makeRouteUrlOf, type RouteUrlOf } from "./http/base-path.js"
import { PricingCache } from "./services/pricing/cache.js"
import { OAuthClients } from "./services/oauth/clients.js"
import { OAuthGrants } from "./services/oauth/grants.js"
import { OAuthSessions } from "./services/oauth/sessions.js"
import { AccessTokenSigner } from "./services/oauth/tokens.js"
import { DeprecatedUsage } from "./services/requests/deprecated-usage.js"
import { IdempotencyStore } from "./services/requests/idempotency.js"
import { Identity } from "./services/credentials/identity.js"
import { Outbox } from "./services/webhooks/outbox.js"
import { RateLimiter } from "./services/requests/rate-limiter.js"
import { Readiness } from "./services/operations/readiness.js"
import { productionFaults, Settings, type ServiceSettings } from "./services/settings.js"
import { Analytics } from "./services/commerce/analytics.js"
import { Designs } from "./services/commerce/designs.js"
import { Integrations } from "./services/commerce/integrations.js"
import { Orders } from "./services/commerce/orders.js"
import { Products } from "./services/commerce/products.js"
import { DeliveryUrlGuard } from "./services/outbound/delivery-url-guard.js"
import { type DeliveryWorkerOptions, layerDeliveryLoop } from "./services/webhooks/delivery-worker.js"
import { OutboundHttp } from "./services/outbound/outbound-http.js"
import { Quotes } from "./services/commerce/quotes.js"
import { WebhookDeliveries } from "./services/webhooks/deliveries.js"
import { WebhookHealth } from "./services/webhooks/health.js"
import { WebhookEvents } from "./services/webhooks/events.js"
import { WebhookReplay } from "./services/webhooks/replay.js"
import { WebhookSubscriptions } from "./services/webhooks/subscriptions.js"
import { SecretBox } from "./services/credentials/secret-box.js"
import { sealPlaintextSecrets } from "./services/credentials/secrets-at-rest.js"

/** Webhook subscriptions, the delivery queue, events, replays, endpoint health and quotes (need `Settings` for the URL policy). */
export const layerWebhookServices = Layer.mergeAll(WebhookReplay.layer, WebhookEvents.layer, WebhookHealth.layer, Quotes.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(WebhookSubscriptions.layer, WebhookDeliveries.layer)),
  Layer.provideMerge(Layer.mergeAll(DeliveryUrlGuard.layer, Outbox.layer))
)

/** The connector's authorization server: clients, sessions, signing keys, grants and tokens (needs `Settings`). */
export const layerOAuthServices = Layer.mergeAll(
  OAuthGrants.layer.pipe(Layer.provideMerge(Layer.mergeAll(AccessTokenSigner.layer, OAuthClients.layer))),
  OAuthSessions.layer.pipe(Layer.provide(Layer.mergeAll(RateLimiter.layer, CursorKey.layer)))
)

/** The domain services over a `SqlClient`. */
export const layerServices = Layer.mergeAll(
  Identity.layer,
  Credentials.layer,
  CursorKey.layer,
  RateLimiter.layer,
  IdempotencyStore.layer,
  DeprecatedUsage.layer,
  Readiness.layer,
  Customisers.layer.pipe(Layer.provideMerge(PricingCache.layer)),
  Outbox.layer
)

// Commerce services: they build on the ones above (and Orders, Designs on each other).
const layerCommerce = Layer.mergeAll(Orders.layer, Designs.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(Integrations.layer, Products.layer, Analytics.layer))
)

// Every service of the app, over a `SqlClient` and `Settings`: the API and the agent origin share them.
const layerAllServices = layerCommerce.pipe(
  Layer.provideMerge(Layer.mergeAll(layerServices, layerWebhookServices, layerOAuthServices))
)

const layerMiddleware = Layer.mergeAll(
  layerApiKeyAuth,
  layerLegacyApiKeyAuth,
  layerOperatorAuth,
  layerPublicAccess,
  layerIdempotentWrites,
  layerRequestFailures,
  layerLegacyRequestFailures
)

/**
 * Builds a layer in a context holding only `keys`. HttpApiBuilder keeps the whole
 * context a handler group was built in and merges it into every request of the group
 * (a copy of each entry per request), so the busiest group is built with just what its
 * handlers and middleware use. A key left out fails the build at start-up.
 */
const layerInNarrowContext = <ROut, E, RIn>(
  layer: Layer.Layer<ROut, E, RIn>,
  keys: ReadonlyArray<Context.Key<RIn, unknown>>
): Layer.Layer<ROut, E, RIn> =>
  Layer.effectContext(Effect.gen(function*() {
    const scope = yield* Scope.Scope
    const narrowed = Context.pick(...keys)(yield* Effect.context<RIn>())
    return yield* Layer.buildWithScope(layer, scope).pipe(Effect.updateContext((_: Context.Context<never>) => narrowed))
  }))

const layerHandlers = Layer.mergeAll(
  SystemHandlers,
  layerInNarrowContext(V3StoresHandlers, [Identity, Settings, ApiKeyAuth, RequestFailures]),
  V3CustomisersHandlers,
  V2CustomisersHandlers,
  OperatorHandlers,
  V3CommerceHandlers,
  V3AnalyticsHandlers,
  LegacyCommerceHandlers,
  OperatorCommerceHandlers,
  StorefrontDesignsHandlers,
  V3WebhooksHandlers,
  V3EventsHandlers,
  V3QuotesHandlers,
  V2WebhooksHandlers,
  StorefrontFormsHandlers
)

// The documentation's view of a tool: what it is called, what it needs and how it behaves.
const catalogueEntryOf = (tool: (typeof agentTools)[number]): ToolCatalogueEntry => ({
  name: tool.name,
  description: tool.description,
  scopes: tool.scopes,
  ...tool.hints
})

/** Options for building the app. */
export interface AppOptions {
  readonly settings: ServiceSettings
  /** Receives one line per request; defaults to discarding them. */
  readonly log?: RequestLogger
  /** When given, the app also runs a webhook delivery worker for as long as it lives. */
  readonly deliveryWorker?: DeliveryWorkerOptions
  /** How the app calls receivers and integrations; `OutboundHttp.layer` (node:http, the deployment's URL policy) by default. */
  readonly outboundHttp?: Layer.Layer<OutboundHttp, never, Settings>
  /**
   * Filled with the app's fast reads while it runs, for a host that can answer a request before
   * handing it to the framework (the reference server's listener does).
   */
  readonly fastReads?: FastReadsSlot
  /**
   * Where the app counts its requests and deliveries for `GET /metrics`. With `metricsToken` set
   * and none given, the app makes its own; a host serving two apps (the API and a separate agent
   * origin) passes one to both.
   */
  readonly metrics?: MetricsRecorder
  /**
   * An API key for the try-it console of `/docs`, honoured only in `development` on a loopback
   * base URL (the reference server passes the demo key it has just printed).
   */
  readonly docsTryItKey?: string
}

/** The recorder an app counts into: the host's, its own when `METRICS_TOKEN` is set, else none (nothing counted). */
const metricsOf = (options: AppOptions): MetricsRecorder | undefined =>
  options.metrics ?? (options.settings.metricsToken === undefined ? undefined : makeMetrics())

// Fills the host's slot with the fast reads for as long as the app lives. A traced app leaves it
// empty: every request then takes the full path, where its server span is made.
const layerFastReads = (slot: FastReadsSlot | undefined, log: RequestLogger, agentPath: string | undefined, routeUrlOf: RouteUrlOf) =>
  slot === undefined ? Layer.empty : Layer.effectDiscard(
    Effect.flatMap(Effect.service(Tracer.Tracer), (tracer) => tracer !== Tracer.nativeTracer ? Effect.void : Effect.acquireRelease(
      Effect.map(makeFastReads(log, agentPath, routeUrlOf), (answer) => {
        slot.answer = answer
      }),
      () =>
        Effect.sync(() => {
          slot.answer = undefined
        })
    ))
  )

// A traced request's server span is named `{method} {route template}` (OpenTelemetry's HTTP
// semantic conventions), never by a concrete path. Only a tracer other than the native one calls it.
const layerSpanNames = (routes: ReadonlyArray<RouteEntry>, routeUrlOf: RouteUrlOf) => {
  const templateOf = makeRouteTemplateOf(routes)
  return Layer.succeed(HttpMiddleware.SpanNameGenerator, (request) => {
    const url = routeUrlOf(request.url)
    return `${request.method} ${(url === undefined ? undefined : templateOf(request.method, url)) ?? UNMATCHED_ROUTE}`
  })
}

// Production refuses to start on settings that would leave it open (docs/configuration.md);
// embedders get the same refusal as the server.
const layerProductionGuard = (settings: ServiceSettings) =>
  Layer.effectDiscard(Effect.suspend(() => {
    const faults = productionFaults(settings)
    return faults.length === 0 ? Effect.void : Effect.die(new Error(`refusing to start in production: ${faults.join("; ")}`))
  }))

// The services and settings both apps are built over: one wiring, `Settings` provided once. Secrets
// stored in plaintext by an earlier version are sealed before any request is served.
const layerAppServices = (options: AppOptions, database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  layerAllServices.pipe(
    Layer.provideMerge(Layer.effectDiscard(sealPlaintextSecrets).pipe(Layer.provide(SecretBox.layer))),
    Layer.provideMerge(options.outboundHttp ?? OutboundHttp.layer),
    Layer.provideMerge(database),
    Layer.provideMerge(layerProductionGuard(options.settings)),
    Layer.provideMerge(Layer.succeed(Settings, options.settings)),
    Layer.provideMerge(Layer.succeed(Metrics, metricsOf(options)))
  )

// What the API app serves and where: its route table, the agent endpoint's path when it is served
// here, and the rule taking the base URL's path off a request.
const appRoutes = (settings: ServiceSettings) => {
  const location = agentLocation(settings.baseUrl, settings.mcpUrl)
  const routes = [
    ...apiRouteTable(SigncraftApi),
    ...docsRouteTable(settings),
    ...metricsRouteTable(settings),
    ...oauthRouteTable,
    ...dashboardRouteTable,
    ...(location.separateOrigin ? [] : agentRouteTable(location))
  ]
  const agentPath = location.separateOrigin ? undefined : location.path
  // The base URL's path is taken off every request here and in the fast reads, so the routes stay unprefixed.
  return { location, routes, agentPath, routeUrlOf: makeRouteUrlOf(settings.baseUrl) }
}

/**
 * Names the server span of each request the API app serves `{method} {route template}`. A host
 * serving the app on a listener of its own (`HttpRouter.serve`) provides it to that listener,
 * whose requests are traced before they reach the app; a web handler's requests get it from the app.
 */
export const layerAppSpanNames = (settings: ServiceSettings) => {
  const { routes, routeUrlOf } = appRoutes(settings)
  return layerSpanNames(routes, routeUrlOf)
}

/**
 * Every route of signcraft as an `HttpRouter` app layer, over a given database.
 * Serve it with `HttpRouter.serve` or turn it into a web handler with {@link makeWebHandler}.
 */
export const layerApp = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) => {
  const api = HttpApiBuilder.layer(SigncraftApi).pipe(
    Layer.provide(layerHandlers),
    Layer.provide(layerMiddleware)
  )
  const worker = options.deliveryWorker === undefined ? Layer.empty : layerDeliveryLoop(options.deliveryWorker)
  const { location, routes, agentPath, routeUrlOf } = appRoutes(options.settings)
  // Without MCP_URL the agent endpoint is served here, at `{base_url}/mcp`.
  const agent = location.separateOrigin ? Layer.empty : layerAgentRoutes(location, agentTools)
  return Layer.mergeAll(
    api,
    layerDocsWith(agentTools.map(catalogueEntryOf), options.docsTryItKey),
    layerMetricsRoute,
    layerOAuthRoutes,
    layerDashboardRoutes,
    agent,
    layerRouterMiddleware(options.log ?? (() => {}), routes, agentPath, routeUrlOf),
    layerFastReads(options.fastReads, options.log ?? (() => {}), agentPath, routeUrlOf),
    layerSpanNames(routes, routeUrlOf),
    worker
  ).pipe(
    Layer.provideMerge(layerAppServices(options, database))
  )
}

/**
 * The agent origin's routes when `MCP_URL` gives the agent endpoint an origin of its
 * own: the endpoint at that origin's root and both metadata documents. Serve it on its
 * own listener, over the same database as {@link layerApp}.
 */
export const layerAgentApp = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) => {
  const location = agentLocation(options.settings.baseUrl, options.settings.mcpUrl)
  return Layer.mergeAll(
    layerAgentRoutes(location, agentTools),
    layerRouterMiddleware(options.log ?? (() => {}), agentRouteTable(location), location.path)
  ).pipe(
    Layer.provideMerge(layerAppServices(options, database))
  )
}

/**
 * A web-standard handler: `(Request) => Promise<Response>`, and `dispose` to release the
 * database. To serve a separate agent origin too ({@link makeAgentWebHandler}), build the
 * database once and pass it to both as a ready context (`Layer.succeedContext`).
 */
export const makeWebHandler = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>,
  build: { readonly memoMap?: Layer.MemoMap } = {}
) =>
  HttpRouter.toWebHandler(layerApp(options, database).pipe(Layer.provide(HttpServer.layerServices)), {
    disableLogger: true,
    ...(build.memoMap === undefined ? {} : { memoMap: build.memoMap })
  })

/** The agent origin's web handler when `MCP_URL` is set (see {@link layerAgentApp}). */
export const makeAgentWebHandler = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) =>
  HttpRouter.toWebHandler(layerAgentApp(options, database).pipe(Layer.provide(HttpServer.layerServices)), {
    disableLogger: true
  })
