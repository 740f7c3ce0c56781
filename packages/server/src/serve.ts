import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { layerAgentApp, layerApp, layerDatabase, oauth, type RequestLogger, Settings } from "@signcraft/core"
import { type FastReadsSlot, layerAppSpanNames, makeMetrics } from "@signcraft/core/internal"
import { type Duration, Effect, Layer, Option } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import { bannerLines } from "./banner.js"
import type { LogFormat, ServerConfig } from "./config.js"
import { DemoSeed, layerDemoSeed } from "./demo-data.js"
import { createDrainingServer } from "./http-listener.js"
import { type LineOutput, stdoutOutput } from "./log-output.js"
import { layerPruning } from "./pruning.js"
import { layerTracing } from "./tracing.js"

/** Options of {@link serve} beyond the configuration. */
export interface ServeOptions {
  /** Where request logs and the banner go; standard output by default. */
  readonly output?: LineOutput
  /** Whether standard output is a terminal, which makes text the default log format; asked of stdout by default. */
  readonly isTerminal?: boolean
  /** How long in-flight requests may take to finish at shutdown; 10 seconds by default. */
  readonly gracefulShutdownTimeout?: Duration.Input
  /** How often expired rate-limit and idempotency records are deleted; 10 minutes by default. */
  readonly pruneInterval?: Duration.Input
}

/** The request logger: one JSON line per request, with the time it was written. */
export const requestLogger = (output: LineOutput): RequestLogger => {
  // Under load several lines share a millisecond: format each millisecond once.
  let lastMs = Number.NaN
  let lastTime = ""
  const timeNow = () => {
    const now = Date.now()
    if (now !== lastMs) {
      lastMs = now
      lastTime = new Date(now).toISOString()
    }
    return lastTime
  }
  return (line) => {
    const time = timeNow()
    const fields = JSON.stringify(line)
    // The same text as `JSON.stringify({ time, ...line })`, without copying the record
    // on every request: the time goes first, then the line's own fields.
    if (fields === "{}" || Object.hasOwn(line, "time")) output.json({ time, ...line })
    else output.text(`{"time":"${time}",${fields.slice(1)}`)
  }
}

// The fields of a request line that its text form writes in place; any other is written `name=value`.
const PLACED_FIELDS: ReadonlySet<string> = new Set(["level", "method", "route", "status", "duration_ms", "request_id", "message"])

/**
 * The request logger for people at a terminal: one line per request, `time level method route
 * status duration request_id`, then any other field as `name=value`; an error's message follows
 * on its own lines.
 */
export const textRequestLogger = (output: LineOutput): RequestLogger => (line) => {
  const parts = [new Date().toISOString(), String(line.level ?? "info").toUpperCase().padEnd(5)]
  if (line.method !== undefined) parts.push(`${line.method} ${line.route ?? ""} ${line.status ?? ""} ${line.duration_ms ?? ""}ms`)
  else if (line.status !== undefined) parts.push(String(line.status))
  if (line.request_id !== undefined) parts.push(String(line.request_id))
  for (const [name, value] of Object.entries(line)) if (!PLACED_FIELDS.has(name)) parts.push(`${name}=${value}`)
  output.text(line.message === undefined ? parts.join(" ") : `${parts.join(" ")} ${line.message}`)
}

/** The request logger of a format: JSON unless text is asked for, or nothing is and the output is a terminal. */
export const requestLoggerFor = (format: LogFormat | undefined, output: LineOutput, isTerminal: boolean): RequestLogger =>
  (format ?? (isTerminal ? "text" : "json")) === "text" ? textRequestLogger(output) : requestLogger(output)

// A listener on a loopback address serves this machine alone; HOST is an address, so IPv6 is bare.
const listensOnLoopback = (host: string): boolean => oauth.isLoopbackHost(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host)

// The demo key just printed, for /docs to fill in; none when this start seeded nothing or the
// listener is reachable from other machines (the app also checks environment and base URL).
const docsTryItKey = (config: ServerConfig) =>
  Effect.map(Effect.service(DemoSeed), (demo) =>
    Option.isSome(demo) && listensOnLoopback(config.host) ? demo.value.apiKey : undefined)

const layerBanner = (config: ServerConfig, output: LineOutput) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const demo = yield* DemoSeed
    output.text(...bannerLines(HttpServer.formatAddress(server.address), config, demo))
    output.flush()
  }))

/**
 * The whole server as a layer. Build order is the point: the database is migrated
 * first, then demo data is seeded, then the listener opens and the routes attach, and
 * last the banner is printed and housekeeping starts. Closing the layer runs it
 * backwards: the listener stops accepting and waits for in-flight requests, then the
 * database closes.
 */
export const layerServer = (config: ServerConfig, options: ServeOptions = {}) => {
  const output = options.output ?? stdoutOutput()
  // One layer value, used twice below: layers are memoised by identity, so the app
  // reuses the database that was built (and migrated) before the listener opened.
  const database = layerDatabase(config.database)
  // The app also runs the webhook delivery worker; it stops with the app, after the batch in hand.
  const log = requestLoggerFor(config.logFormat, output, options.isTerminal ?? process.stdout.isTTY === true)
  // One recorder for both listeners, so one scrape of `/metrics` counts the agent origin's requests too.
  const metrics = config.settings.metricsToken === undefined ? undefined : makeMetrics()
  // The hottest reads are answered before a request is built for the framework (see fastReads).
  const fastReads: FastReadsSlot = { answer: undefined }
  const app = Layer.unwrap(Effect.map(docsTryItKey(config), (key) =>
    layerApp({
      settings: config.settings,
      log,
      deliveryWorker: { log },
      fastReads,
      ...(metrics === undefined ? {} : { metrics }),
      ...(key === undefined ? {} : { docsTryItKey: key })
    }, database)
  ))
  // A traced request's span is made before the app sees it, so the listener itself names it.
  const routes = HttpRouter.serve(app, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provide(layerAppSpanNames(config.settings))
  )
  const listener = NodeHttpServer.layer(() => createDrainingServer(fastReads), {
    port: config.port,
    host: config.host,
    gracefulShutdownTimeout: options.gracefulShutdownTimeout ?? "10 seconds"
  })
  // With MCP_PORT and MCP_URL the agent endpoint gets a listener of its own, over the
  // same database; closing the server closes both listeners.
  const agent = config.mcp === undefined ? Layer.empty : HttpRouter.serve(
    layerAgentApp({ settings: config.settings, log, ...(metrics === undefined ? {} : { metrics }) }, database),
    { disableLogger: true, disableListenLog: true }
  ).pipe(
    Layer.provide(NodeHttpServer.layer(createDrainingServer, {
      port: config.mcp.port,
      host: config.host,
      gracefulShutdownTimeout: options.gracefulShutdownTimeout ?? "10 seconds"
    }))
  )
  // The agent listener is built beside the main one, not inside it: built under the main
  // app's context it would share the main app's router.
  const main = Layer.mergeAll(layerBanner(config, output), layerPruning(options.pruneInterval ?? "10 minutes", output)).pipe(
    Layer.provide(routes),
    Layer.provide(listener)
  )
  const server = Layer.mergeAll(main, agent).pipe(
    // Some handlers read the settings per request, from the serving context rather than
    // from the app's build: both listeners get them here, once.
    Layer.provide(Layer.succeed(Settings, config.settings)),
    // Storage outermost: with the listener built beside it, the first requests could
    // arrive before migrations finished and stall.
    Layer.provide(layerDemoSeed(config.settings.environment)),
    Layer.provide(database)
  )
  // Outermost of all: every span, from the migrations on, goes to the collector, and closing
  // the server flushes the last ones after the database has closed.
  return server.pipe(Layer.provide(layerTracing(config.traces)))
}

/** Runs the server until interrupted; interrupting it shuts down gracefully. */
export const serve = (config: ServerConfig, options: ServeOptions = {}) => Layer.launch(layerServer(config, options))
