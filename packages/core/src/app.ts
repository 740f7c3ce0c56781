import { Context, Effect, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { SigncraftApi } from "./http/api/index.js"
import { layerDocs } from "./http/docs.js"
import { OperatorHandlers } from "./http/handlers/operator.js"
import { SystemHandlers } from "./http/handlers/system.js"
import { V3StoresHandlers } from "./http/handlers/v3-stores.js"
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
import { Credentials } from "./services/credentials.js"
import { DeprecatedUsage } from "./services/deprecated-usage.js"
import { IdempotencyStore } from "./services/idempotency.js"
import { Identity } from "./services/identity.js"
import { RateLimiter } from "./services/rate-limiter.js"
import { Settings, type ServiceSettings } from "./services/settings.js"

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
  OperatorHandlers
)

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
  const services = layerServices.pipe(Layer.provideMerge(database), Layer.provideMerge(settings))
  const api = HttpApiBuilder.layer(SigncraftApi).pipe(
    Layer.provide(layerHandlers),
    Layer.provide(layerMiddleware)
  )
  return Layer.mergeAll(api, layerDocs, layerRouterMiddleware(options.log ?? (() => {}))).pipe(
    Layer.provideMerge(services)
  )
}

/** A web-standard handler: `(Request) => Promise<Response>`, and `dispose` to release the database. */
export const makeWebHandler = (
  options: AppOptions,
  database: Layer.Layer<SqlClient.SqlClient, unknown>
) =>
  HttpRouter.toWebHandler(layerApp(options, database).pipe(Layer.provide(HttpServer.layerServices)), {
    disableLogger: true
  })
