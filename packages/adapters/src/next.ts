import { defaultSettings, layerDatabase, makeWebHandler, type SettingsInput } from "@signcraft/core"
import { type RequestLogOption, requestLoggerOf } from "./request-log.js"
import { serveWeb, type WebHandler } from "./web-handler.js"

/** A Next.js App Router route handler (a `NextRequest` is a web `Request`). */
export type NextRouteHandler = (request: Request) => Promise<Response>

/** The route module exports of `app/signs/[...signcraft]/route.ts` (`app/[...signcraft]/route.ts` at the root). */
export interface NextRouteHandlers {
  readonly GET: NextRouteHandler
  readonly HEAD: NextRouteHandler
  readonly POST: NextRouteHandler
  readonly PUT: NextRouteHandler
  readonly PATCH: NextRouteHandler
  readonly DELETE: NextRouteHandler
  readonly OPTIONS: NextRouteHandler
}

/** Options of {@link toNextRouteHandlers}. */
export interface NextAdapterOptions {
  /**
   * The client's address for per-IP quotas. Route handlers see no socket, so there is no
   * default. Return the address your own proxy saw, e.g. the last `x-forwarded-for` hop it
   * appended; never the first hop, which the client writes.
   */
  readonly clientAddress?: (request: Request) => string | undefined
}

/** Route handlers for every method: `export const { GET, POST, … } = toNextRouteHandlers(handler)`. */
export const toNextRouteHandlers = (handler: WebHandler, options: NextAdapterOptions = {}): NextRouteHandlers => {
  const route: NextRouteHandler = (request) => serveWeb(handler, request, options.clientAddress?.(request))
  return { GET: route, HEAD: route, POST: route, PUT: route, PATCH: route, DELETE: route, OPTIONS: route }
}

/** Options of {@link signcraftNext}: plain values only, so the route module never imports `effect`. */
export interface SigncraftNextOptions extends NextAdapterOptions {
  /**
   * The service settings; `baseUrl` is the app's public origin followed by the route's folder
   * (`https://shop.example/signs` for `app/signs/[...signcraft]/route.ts`).
   */
  readonly settings?: SettingsInput
  /** A PostgreSQL connection string (`DATABASE_URL`); the embedded database when absent or empty. */
  readonly databaseUrl?: string | undefined
  /** The embedded database's directory, relative to where `next` runs; `.data/signcraft` by default. */
  readonly dataDir?: string
  /**
   * The schema signcraft keeps everything in (`DATABASE_SCHEMA`), a lower-case SQL identifier;
   * `signcraft` by default. Any other value fails the first request with the reason.
   */
  readonly databaseSchema?: string | undefined
  /** Runs the webhook delivery worker in this process (true by default). */
  readonly deliverWebhooks?: boolean
  /**
   * Where each request's log line goes (request id, method, route, status, duration): one JSON
   * line on standard output by default, your function instead, or `false` for none.
   */
  readonly logger?: RequestLogOption
}

interface Instance {
  readonly handler: WebHandler
  readonly dispose: () => Promise<void>
}

// One instance per database for the whole process, kept on `globalThis`: `next dev` re-evaluates
// route modules on every reload, and two embedded databases must never open the same directory.
const INSTANCES = Symbol.for("@signcraft/adapters/next:instances")
const instances = (): Map<string, Instance> => {
  const holder = globalThis as { [INSTANCES]?: Map<string, Instance> }
  holder[INSTANCES] ??= new Map()
  return holder[INSTANCES]
}

const instanceFor = (options: SigncraftNextOptions): Instance => {
  const databaseUrl = options.databaseUrl === undefined || options.databaseUrl.trim() === "" ? undefined : options.databaseUrl
  const dataDir = options.dataDir ?? ".data/signcraft"
  const schema = options.databaseSchema === undefined || options.databaseSchema.trim() === "" ? undefined : options.databaseSchema
  // A directory is opened once whatever the schema; a PostgreSQL database holds one deployment per schema.
  const key = databaseUrl === undefined ? `embedded:${dataDir}` : `postgres:${databaseUrl} schema:${schema ?? ""}`
  const existing = instances().get(key)
  if (existing !== undefined) return existing
  const log = requestLoggerOf(options.logger)
  const created: Instance = makeWebHandler(
    {
      settings: defaultSettings(options.settings),
      ...(log === undefined ? {} : { log }),
      ...(options.deliverWebhooks === false ? {} : { deliveryWorker: {} })
    },
    layerDatabase(
      databaseUrl === undefined
        ? { _tag: "Embedded", location: { dataDir }, schema }
        : { _tag: "Postgres", url: databaseUrl, schema }
    )
  )
  instances().set(key, created)
  return created
}

/**
 * The whole of `app/signs/[...signcraft]/route.ts`:
 * `export const { GET, POST, … } = signcraftNext({ settings: { baseUrl }, databaseUrl })`.
 * Nothing starts while `next build` imports the module: the database opens (and migrates) on the
 * first request, and later reloads of the module in `next dev` reuse that instance (settings
 * changed in the module take effect on the next `next dev` start).
 */
export const signcraftNext = (options: SigncraftNextOptions = {}): NextRouteHandlers =>
  toNextRouteHandlers((request, context) => instanceFor(options).handler(request, context), options)
