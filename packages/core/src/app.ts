import { Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { SigncraftApi } from "./http/api/index.js"
import { layerDocs } from "./http/docs.js"
import { OperatorHandlers } from "./http/handlers/operator.js"
import { SystemHandlers } from "./http/handlers/system.js"
import { V3StoresHandlers } from "./http/handlers/v3-stores.js"
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
import { layerAgentRoutes } from "./http/agent-routes.js"
import { layerOAuthRoutes } from "./http/oauth/routes.js"
import { Credentials } from "./services/credentials.js"
import { OAuthClients } from "./services/oauth-clients.js"
import { OAuthGrants } from "./services/oauth-grants.js"
import { OAuthSessions } from "./services/oauth-sessions.js"
import { AccessTokenSigner } from "./services/oauth-tokens.js"
import { DeprecatedUsage } from "./services/deprecated-usage.js"
import { IdempotencyStore } from "./services/idempotency.js"
import { Identity } from "./services/identity.js"
import { RateLimiter } from "./services/rate-limiter.js"
import { Settings, type ServiceSettings } from "./services/settings.js"

/** The connector's authorization server: clients, sessions, signing keys, grants and tokens (needs `Settings`). */
export const layerOAuthServices = Layer.mergeAll(
  OAuthGrants.layer.pipe(Layer.provideMerge(Layer.mergeAll(AccessTokenSigner.layer, OAuthClients.layer))),
  OAuthSessions.layer.pipe(Layer.provide(RateLimiter.layer))
)

/** The domain services over a `SqlClient`. */
export const layerServices = Layer.mergeAll(
  Identity.layer,
  Credentials.layer,
  RateLimiter.layer,
  IdempotencyStore.layer,
  DeprecatedUsage.layer
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

const layerHandlers = Layer.mergeAll(SystemHandlers, V3StoresHandlers, OperatorHandlers)

/** Options for building the app. */
export interface AppOptions {
  readonly settings: ServiceSettings
  /** Receives one line per request; defaults to discarding them. */
  readonly log?: RequestLogger
}

/**
 * Every route of signcraft as an `HttpRouter` app layer, over a given database.
 * Serve it with `HttpRouter.serve` or turn it into a web handler with {@link makeWebHandler}.
 */
export const layerApp = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) => {
  const settings = Layer.succeed(Settings, options.settings)
  const services = Layer.mergeAll(layerServices, layerOAuthServices).pipe(
    Layer.provideMerge(database),
    Layer.provideMerge(settings)
  )
  const api = HttpApiBuilder.layer(SigncraftApi).pipe(
    Layer.provide(layerHandlers),
    Layer.provide(layerMiddleware)
  )
  const location = agentLocation(options.settings.baseUrl, options.settings.mcpUrl)
  // Without MCP_URL the agent endpoint is served here, at `{base_url}/mcp`.
  const agent = location.separateOrigin ? Layer.empty : layerAgentRoutes(location, agentTools)
  return Layer.mergeAll(api, layerDocs, layerOAuthRoutes, agent, layerRouterMiddleware(options.log ?? (() => {}))).pipe(
    Layer.provideMerge(services)
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
  const settings = Layer.succeed(Settings, options.settings)
  const services = Layer.mergeAll(layerServices, layerOAuthServices).pipe(
    Layer.provideMerge(database),
    Layer.provideMerge(settings)
  )
  const location = agentLocation(options.settings.baseUrl, options.settings.mcpUrl)
  return Layer.mergeAll(layerAgentRoutes(location, agentTools), layerRouterMiddleware(options.log ?? (() => {}))).pipe(
    Layer.provideMerge(services)
  )
}

/**
 * A web-standard handler: `(Request) => Promise<Response>`, and `dispose` to release the
 * database. To serve a separate agent origin too ({@link makeAgentWebHandler}), build the
 * database once and pass it to both as a ready context (`Layer.succeedContext`).
 */
export const makeWebHandler = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) =>
  HttpRouter.toWebHandler(layerApp(options, database).pipe(Layer.provide(HttpServer.layerServices)), {
    disableLogger: true
  })

/** The agent origin's web handler when `MCP_URL` is set (see {@link layerAgentApp}). */
export const makeAgentWebHandler = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) =>
  HttpRouter.toWebHandler(layerAgentApp(options, database).pipe(Layer.provide(HttpServer.layerServices)), {
    disableLogger: true
  })
