import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Metrics, type MetricsRecorder, type ScrapedFigures } from "../services/operations/metrics.js"
import { type ServiceSettings, Settings } from "../services/settings.js"
import { WebhookDeliveries } from "../services/webhooks/deliveries.js"
import { ConnectionUsage } from "../storage/connection-usage.js"
import { bearerOf, makeBearerTokenCheck } from "./middleware/operator-token.js"
import type { RouteEntry } from "./route-table.js"

const METRICS_PATH = "/metrics"

// The Prometheus text exposition format, version 0.0.4.
const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"

/** `GET /metrics` in the route table (for 405 answers) when it is served: with `METRICS_TOKEN` set. */
export const metricsRouteTable = (settings: ServiceSettings): ReadonlyArray<RouteEntry> =>
  settings.metricsToken === undefined ? [] : [{ method: "GET", path: METRICS_PATH }]

/**
 * `GET /metrics`: the process's metrics as Prometheus text, answered only to `METRICS_TOKEN` (401
 * otherwise); without a token the path is unknown (404). The figures read from the database are
 * read at each scrape; when the database does not answer they read NaN and
 * `signcraft_database_up` reads 0, and the counters are still served.
 */
export const layerMetricsRoute = Layer.unwrap(Effect.gen(function*() {
  const settings = yield* Settings
  const metrics: MetricsRecorder | undefined = yield* Metrics
  if (settings.metricsToken === undefined || metrics === undefined) return Layer.empty
  const check = yield* makeBearerTokenCheck(settings.metricsToken, "metrics_token")
  const deliveries = yield* WebhookDeliveries
  // A database layer of signcraft's own (layerDatabase) tells its connections; another may not.
  const usage = Option.getOrUndefined(yield* Effect.serviceOption(ConnectionUsage))
  const unknown: ScrapedFigures = {
    databaseUp: false,
    pendingDeliveries: Number.NaN,
    oldestPendingSeconds: Number.NaN,
    connections: { open: Number.NaN, busy: Number.NaN, max: Number.NaN }
  }
  const connections = usage === undefined ? Effect.succeed(unknown.connections) : usage.read()
  const figures = Effect.all([deliveries.backlog(), connections]).pipe(
    Effect.map(([backlog, connections]): ScrapedFigures => ({
      databaseUp: true,
      pendingDeliveries: backlog.pending,
      oldestPendingSeconds: backlog.oldestSeconds,
      connections
    })),
    Effect.catchTag("SqlError", () => Effect.succeed(unknown))
  )
  return HttpRouter.add(
    "GET",
    METRICS_PATH,
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      yield* check(bearerOf(request.headers.authorization))
      return HttpServerResponse.text(metrics.render(yield* figures), { contentType: PROMETHEUS_TEXT })
    })
  )
}))
