import { type AppOptions, type DatabaseConfig, defaultSettings, layerDatabase, layerServices, layerWebhookServices, makeWebHandler, type ServiceSettings, Settings } from "@signcraft/core"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { AdjustableClock } from "./clock.js"

/** The operator token of every test app. */
export const OPERATOR_TOKEN = "op_test_token_for_every_test_app_0123456789"

/** A `SECRETS_KEY` for tests that run in production (32 bytes, base64). */
export const TEST_SECRETS_KEY = Redacted.make(Buffer.alloc(32, 7).toString("base64"))

/** Rate limits no suite reaches, for suites that send many requests but do not test the limits. */
export const GENEROUS_RATE_LIMITS = { rateLimitPerKeyPerMinute: 100_000, rateLimitPerIpPerMinute: 100_000 } as const satisfies Partial<ServiceSettings>

/** A response read once: status, headers and the parsed JSON body (or undefined). */
export interface TestResponse {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  readonly body: any
}

/** JSON calls against a web handler: `call` with an optional API key, `operator` with the operator token. */
export const clientOf = (handler: (request: Request) => Promise<Response>, basePath = "") => {
  const call = async (
    method: string,
    path: string,
    options: { readonly body?: unknown; readonly headers?: Record<string, string>; readonly key?: string } = {}
  ): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.body !== undefined) headers["content-type"] ??= "application/json"
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
    const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body)
    const response = await handler(new Request(`http://127.0.0.1${path}`, { method, headers, body }))
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
  }
  const operator = (method: string, path: string, body?: unknown) =>
    call(method, `${basePath}/operator/v1${path}`, { body, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })
  return { call, operator }
}

/** What a key is allowed: the given scopes, or the legacy wildcard. */
export type SeedGrant = { readonly scopes: ReadonlyArray<string> } | "wildcard"

/** How a seeded Store and its key differ from the defaults (a test key of a `custom` Store in USD). */
export interface SeedOptions {
  readonly mode?: "live" | "test"
  readonly platform?: string
  readonly currency?: string
}

/** A seeded company, its Store and the Store's key. */
export interface SeededStore {
  readonly companyId: number
  readonly storeId: number
  readonly key: string
  readonly keyId: number
}

/** What the harness adds to the app: a clock every request reads, or any other replacement layer (a tracer, say). */
export interface HarnessOptions {
  readonly clock?: AdjustableClock
  readonly layer?: Layer.Layer<never>
}

/**
 * The real web handler over a database, with helpers to call it, seed it through the operator
 * API, and reach its services and SQL directly.
 */
export const startApp = (
  database: DatabaseConfig,
  overrides: Partial<ServiceSettings> = {},
  appOptions: Omit<AppOptions, "settings"> = {},
  harness: HarnessOptions = {}
) => {
  const settings = defaultSettings({ environment: "test", operatorToken: Redacted.make(OPERATOR_TOKEN), ...overrides })
  // One database layer and one memo map: the handler and `run` share the same database and services.
  const memoMap = Layer.makeMemoMapUnsafe()
  const extras = [harness.clock?.layer, harness.layer].filter((layer) => layer !== undefined)
  // An injected clock (or tracer) rides in with the database: every request of the handler then reads it.
  const databaseLayer = layerDatabase(database)
  const appDatabase = extras.reduce<typeof databaseLayer>((merged, layer) => Layer.merge(merged, layer), databaseLayer)
  const app = makeWebHandler({ ...appOptions, settings }, appDatabase, { memoMap })
  const services = Layer.mergeAll(layerServices, layerWebhookServices).pipe(
    Layer.provideMerge(appDatabase),
    Layer.provideMerge(Layer.succeed(Settings, settings))
  )
  let runtime: ManagedRuntime.ManagedRuntime<Layer.Success<typeof services>, unknown> | undefined
  /** Runs an effect against the app's services, database and clock; build the app with a request first. */
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof services>>): Promise<A> => {
    runtime ??= ManagedRuntime.make(services, { memoMap })
    return runtime.runPromise(effect)
  }
  /** Runs SQL on the app's own database: to seed what no endpoint creates, or to look at what the handler stored. */
  const query = <A extends object>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* statement(sql)
    }).pipe(Effect.orDie))
  const dispose = async () => {
    await runtime?.dispose()
    await app.dispose()
  }
  const { call, operator } = clientOf(app.handler, new URL(settings.baseUrl).pathname.replace(/\/+$/, ""))

  /** Creates a company, a Store and a key with the given scopes (or the legacy wildcard). */
  const seedStore = async (grant: SeedGrant = { scopes: ["store:read"] }, options: SeedOptions = {}): Promise<SeededStore> => {
    const company = await operator("POST", "/companies", { name: "Acme" })
    const store = await operator("POST", "/stores", {
      company_id: company.body.id,
      name: "Shop",
      platform: options.platform ?? "custom",
      ...(options.currency === undefined ? {} : { currency: options.currency })
    })
    const mode = options.mode ?? "test"
    const key = await operator(
      "POST",
      `/stores/${store.body.id}/api-keys`,
      grant === "wildcard" ? { mode, legacy_wildcard: true } : { mode, scopes: grant.scopes }
    )
    return { companyId: company.body.id as number, storeId: store.body.id as number, key: key.body.key as string, keyId: key.body.id as number }
  }
  /** A customiser of the Store, through the operator API; its id. */
  const seedCustomiser = async (storeId: number): Promise<number> => {
    const res = await operator("POST", `/stores/${storeId}/customisers`, {
      name: "Neon sign",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    if (res.status !== 201) throw new Error(`customiser not created: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.id as number
  }
  const handlerText = async (path: string) => (await app.handler(new Request(`http://127.0.0.1${path}`))).text()
  return { call, operator, seedStore, seedCustomiser, handlerText, handler: app.handler, run, query, settings, dispose }
}

/** A started test app. */
export type TestApp = ReturnType<typeof startApp>

/** Creates a customiser through the operator API (a `simple_letter` neon one unless overridden). */
export const createCustomiser = async (
  app: TestApp,
  storeId: number,
  overrides: Record<string, unknown> = {}
): Promise<{ readonly id: number; readonly [key: string]: unknown }> => {
  const res = await app.operator("POST", `/stores/${storeId}/customisers`, {
    name: "Neon letters",
    product_family: "neon",
    selection_mode: "single_style",
    pricing_model: "simple_letter",
    ...overrides
  })
  if (res.status !== 201) throw new Error(`customiser not created: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}
