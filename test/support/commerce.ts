import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { type AppOptions, makeWebHandler } from "../../packages/core/src/app.js"
import { verifyWebhook } from "../../packages/core/src/domain/webhooks/signature.js"
import { defaultSettings, type ServiceSettings } from "../../packages/core/src/services/settings.js"
import { layerDatabase, type DatabaseConfig } from "../../packages/core/src/storage/database.js"
import { clientOf, OPERATOR_TOKEN } from "./app.js"
import type { AdjustableClock } from "./clock.js"

/**
 * The real web handler over a database whose `SqlClient` the test can use too, to seed what
 * no endpoint creates yet and to look at what the handler stored.
 */
export const startCommerceApp = async (
  database: DatabaseConfig,
  overrides: Partial<ServiceSettings> = {},
  appOptions: Omit<AppOptions, "settings"> = {},
  harness: { readonly clock?: AdjustableClock; readonly layer?: Layer.Layer<never> } = {}
) => {
  const runtime = ManagedRuntime.make(layerDatabase(database))
  const context = await runtime.context()
  const settings = defaultSettings({
    environment: "test",
    operatorToken: Redacted.make(OPERATOR_TOKEN),
    rateLimitPerKeyPerMinute: 100_000,
    rateLimitPerIpPerMinute: 100_000,
    ...overrides
  })
  const ready = Layer.succeedContext(context)
  // An injected clock (or tracer) rides in with the database: every request of the handler then reads it.
  const clocked = harness.clock === undefined ? ready : Layer.merge(ready, harness.clock.layer)
  const app = makeWebHandler({ ...appOptions, settings }, harness.layer === undefined ? clocked : Layer.merge(clocked, harness.layer))

  const { call, operator } = clientOf(app.handler)

  /** Runs SQL on the app's own database. */
  const query = <A extends object>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* statement(sql)
    }).pipe(Effect.orDie))

  /** A company, a Store and a key with the given scopes (or the legacy wildcard). */
  const seedStore = async (
    grant: { readonly scopes: ReadonlyArray<string> } | "wildcard",
    currency = "USD"
  ) => {
    const company = await operator("POST", "/companies", { name: "Acme" })
    const store = await operator("POST", "/stores", { company_id: company.body.id, name: "Shop", currency })
    const key = await operator(
      "POST",
      `/stores/${store.body.id}/api-keys`,
      grant === "wildcard" ? { mode: "test", legacy_wildcard: true } : { mode: "test", scopes: grant.scopes }
    )
    return { storeId: store.body.id as number, key: key.body.key as string, keyId: key.body.id as number }
  }

  /** A customiser of the Store, through the operator API. */
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

  const dispose = async () => {
    await app.dispose()
    await runtime.dispose()
  }
  return { call, operator, query, seedStore, seedCustomiser, dispose, settings }
}

/** What the integrator's receiver does with the next create-product call. */
export type ReceiverBehaviour = "external_id" | "numeric_id" | "status_500" | "no_external_id" | "not_json" | "redirect"

/** One call the receiver got, with whether its signature verified with the expected secret. */
export interface ReceivedCall {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: string
  readonly verified: boolean
}

/**
 * A real HTTP receiver on 127.0.0.1 playing the integrator: verifies each call's signature with
 * the core verifier against the raw body, then answers as told.
 */
export const startIntegrator = async () => {
  const calls: Array<ReceivedCall> = []
  let secret = ""
  // Webhook subscriptions deliver to /hooks/…, each signed with its own subscription secret.
  const hookSecrets = new Map<string, string>()
  let behaviour: ReceiverBehaviour = "external_id"
  let counter = 0
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8")
      const path = req.url ?? ""
      const verified = verifyWebhook({ rawBody, headers: req.headers, secret: hookSecrets.get(path) ?? secret }).ok
      calls.push({ path: req.url ?? "", headers: req.headers, rawBody, verified })
      counter += 1
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
      if (!verified) return json(401, { error: "bad signature" })
      if (hookSecrets.has(path)) return json(200, { ok: true, external_id: `hook_${counter}` })
      switch (behaviour) {
        case "external_id":
          return json(200, { external_id: `shop_prod_${counter}` })
        case "numeric_id":
          return json(200, { external_id: 9000 + counter })
        case "status_500":
          return json(500, { error: "boom" })
        case "no_external_id":
          return json(200, { ok: true })
        case "not_json":
          return res.writeHead(200, { "content-type": "text/plain" }).end("external_id=1")
        case "redirect":
          return res.writeHead(302, { location: "/elsewhere" }).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/products`,
    calls,
    useSecret: (value: string) => {
      secret = value
    },
    /** Where a webhook subscription should deliver, and the secret its deliveries are signed with. */
    hookUrl: (path: string) => `http://127.0.0.1:${port}${path}`,
    useHookSecret: (path: string, value: string) => {
      hookSecrets.set(path, value)
    },
    answer: (next: ReceiverBehaviour) => {
      behaviour = next
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
