import { type Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { type AppOptions, layerServices, layerWebhookServices, makeWebHandler } from "../../packages/core/src/app.js"
import { defaultSettings, type ServiceSettings, Settings } from "../../packages/core/src/services/settings.js"
import { layerDatabase, type DatabaseConfig } from "../../packages/core/src/storage/database.js"
import type { AdjustableClock } from "./clock.js"

/** The operator token of every test app. */
export const OPERATOR_TOKEN = "op_test_token_for_every_test_app_0123456789"

/** A `SECRETS_KEY` for tests that run in production (32 bytes, base64). */
export const TEST_SECRETS_KEY = Redacted.make(Buffer.alloc(32, 7).toString("base64"))

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

/** The real web handler over a database, with helpers to call it. */
export const startApp = (
  database: DatabaseConfig,
  overrides: Partial<ServiceSettings> = {},
  appOptions: Omit<AppOptions, "settings"> = {},
  harness: { readonly clock?: AdjustableClock } = {}
) => {
  const settings = defaultSettings({ environment: "test", operatorToken: Redacted.make(OPERATOR_TOKEN), ...overrides })
  // One database layer and one memo map: the handler and `run` share the same database.
  const memoMap = Layer.makeMemoMapUnsafe()
  const databaseLayer = layerDatabase(database)
  // An injected clock rides in with the database: every request of the handler then reads it.
  const appDatabase = harness.clock === undefined ? databaseLayer : Layer.merge(databaseLayer, harness.clock.layer)
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
  const dispose = async () => {
    await runtime?.dispose()
    await app.dispose()
  }
  const { call, operator } = clientOf(app.handler, new URL(settings.baseUrl).pathname.replace(/\/+$/, ""))

  /** Creates a company, a store and a key with the given scopes (or the legacy wildcard). */
  const seedStore = async (
    grant: { readonly scopes: ReadonlyArray<string> } | "wildcard" = { scopes: ["store:read"] },
    mode: "live" | "test" = "test",
    platform = "custom"
  ) => {
    const company = await operator("POST", "/companies", { name: "Acme" })
    const store = await operator("POST", "/stores", { company_id: company.body.id, name: "Shop", platform })
    const key = await operator(
      "POST",
      `/stores/${store.body.id}/api-keys`,
      grant === "wildcard" ? { mode, legacy_wildcard: true } : { mode, scopes: grant.scopes }
    )
    return { companyId: company.body.id as number, storeId: store.body.id as number, key: key.body.key as string, keyId: key.body.id as number }
  }
  const handlerText = async (path: string) => (await app.handler(new Request(`http://127.0.0.1${path}`))).text()
  return { call, operator, seedStore, handlerText, handler: app.handler, run, dispose }
}

/** Creates a customiser through the operator API (a `simple_letter` neon one unless overridden). */
export const createCustomiser = async (
  app: ReturnType<typeof startApp>,
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
