import { EXAMPLE_ORDER, OPERATION_EXAMPLES, type OperationExample } from "../../src/http/docs/operation-examples.js"
import type { DatabaseConfig } from "../../src/storage/database.js"
import { GENEROUS_RATE_LIMITS, startApp } from "@signcraft/test-kit"
import { startIntegrator } from "@signcraft/test-kit/integrator"

/** An operation of the OpenAPI document: its method, path template and operationId. */
export interface DocumentedOperation {
  readonly method: string
  readonly path: string
  readonly operationId: string
}

/** What the real handler answered to an operation's example request. */
export interface ExampleAnswer {
  readonly operationId: string
  readonly status: number
  readonly body: unknown
  /** The example as sent: its ids replaced by the ones this run created. */
  readonly sent: OperationExample
}

// Members of example bodies that name resources: the run's own ids go in their place.
const ID_MEMBERS = new Set(["integration_id", "product_id", "customiser_id", "order_id", "webhook_id", "delivery_id", "event_id"])

const withIds = (value: unknown, ids: ReadonlyMap<string, number | string>, hookUrl: string): unknown => {
  if (Array.isArray(value)) return value.map((member) => withIds(member, ids, hookUrl))
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => {
      if (ID_MEMBERS.has(key) && (typeof member === "number" || typeof member === "string")) return [key, ids.get(key) ?? member]
      // Deliveries go to a receiver on this machine, not to the example's public host.
      if (key === "url" && typeof member === "string") return [key, hookUrl]
      return [key, withIds(member, ids, hookUrl)]
    })
  )
}

// The id of the resource an answer holds (`data`), or of the first of a collection's.
const firstId = (body: unknown): number | string | undefined => {
  const data: unknown = typeof body === "object" && body !== null ? Reflect.get(body, "data") : undefined
  const item: unknown = Array.isArray(data) ? data[0] : data
  const id: unknown = typeof item === "object" && item !== null ? Reflect.get(item, "id") : undefined
  return typeof id === "number" || typeof id === "string" ? id : undefined
}

// Which id an operation's answer introduces, for the operations after it.
const CREATES: Readonly<Record<string, string>> = {
  "v3Commerce.createProduct": "product_id",
  "v3Commerce.createOrder": "order_id",
  "v3Webhooks.createSubscription": "webhook_id",
  "v3Webhooks.listDeliveries": "delivery_id",
  "v3Events.listEvents": "event_id"
}

/**
 * Sends every example request of `operations`, in {@link EXAMPLE_ORDER}, to the real handler on a
 * fresh Store (a key with every scope, a customiser, an integration whose create-product URL and
 * webhook receiver run on 127.0.0.1), and returns the answers.
 */
export const runExamples = async (database: DatabaseConfig, operations: ReadonlyArray<DocumentedOperation>) => {
  const app = startApp(database, GENEROUS_RATE_LIMITS)
  const integrator = await startIntegrator()
  try {
    const scopes = [
      "store:read", "customisers:read", "pricing:read", "pricing:write", "products:read", "products:write",
      "orders:read", "orders:write", "analytics:read", "quotes:read", "webhooks:read", "webhooks:write"
    ]
    const { storeId, key } = await app.seedStore({ scopes })
    const customiserId = await app.seedCustomiser(storeId)
    const integration = await app.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: integrator.url })
    integrator.useSecret(String(integration.body.signing_secret))
    const ids = new Map<string, number | string>([["customiser_id", customiserId], ["integration_id", Number(integration.body.id)]])
    const hookPath = "/hooks/examples"
    const byId = new Map(operations.map((operation) => [operation.operationId, operation]))
    const answers: Array<ExampleAnswer> = []
    for (const operationId of EXAMPLE_ORDER) {
      const operation = byId.get(operationId)
      const example = OPERATION_EXAMPLES[operationId]
      if (operation === undefined || example === undefined) continue
      const sent = withIds(example, ids, integrator.hookUrl(hookPath)) as OperationExample
      const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => String(sent.params?.[name] ?? `{${name}}`))
      const query = sent.query === undefined ? "" : `?${new URLSearchParams(sent.query).toString()}`
      const needsKey = !operation.path.startsWith("/storefront/") && operation.path !== "/healthz" && operation.path !== "/readyz"
      const response = await app.call(operation.method.toUpperCase(), `${path}${query}`, {
        ...(sent.body === undefined ? {} : { body: sent.body }),
        ...(needsKey ? { key } : {}),
        ...(sent.idempotency_key === undefined ? {} : { headers: { "idempotency-key": sent.idempotency_key } })
      })
      answers.push({ operationId, status: response.status, body: response.body, sent })
      if (operationId === "v3Webhooks.createSubscription" || operationId === "v3Webhooks.rotateSecret") {
        integrator.useHookSecret(hookPath, String((response.body as { data: { secret: string } }).data.secret))
      }
      const created = CREATES[operationId]
      const id = firstId(response.body)
      if (created !== undefined && id !== undefined) ids.set(created, id)
    }
    return { answers, baseUrl: app.settings.baseUrl }
  } finally {
    await integrator.close()
    await app.dispose()
  }
}
