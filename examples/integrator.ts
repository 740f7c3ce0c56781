/**
 * An integrator's side of the custom integration flow, on `@signcraft/client`, in the order the
 * migration guide (`/docs/migration`) recommends:
 *
 * 1. check: `GET /api/v3/stores/me`, confirming the Store and the key's scopes;
 * 2. receive `product:created` on the create-product URL, verified on the raw bytes, and answer
 *    with the id the product gets on the integrator's own platform;
 * 3. migrate a v2 order: translate the body the integrator used to send to `POST /api/v2/orders`
 *    with the exported translator, its product references resolved to v3 product ids;
 * 4. send the order to `POST /api/v3/orders`, with an idempotency key derived from the order, so
 *    a rerun of the migration replays instead of ordering twice.
 *
 * Run it against a server (development or test: loopback HTTP delivery URLs are accepted):
 *
 *   SIGNCRAFT_BASE_URL=http://localhost:8080 SIGNCRAFT_API_KEY=sk_test_... \
 *   SIGNCRAFT_SIGNING_SECRET=whsec_... PORT=4100 node --import tsx examples/integrator.ts
 *
 * then point the integration's `create_product_url` at the printed URL and finish a design.
 */
import { type AttemptEvent, SigncraftClient, SigncraftProblem, verifyWebhook } from "@signcraft/client"
import { orders } from "@signcraft/core/domain"
import { Result } from "effect"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

/** A `product:created` delivery as the example uses it (other members are ignored: answers grow compatibly). */
export interface CreatedProduct {
  /** The v3 product id: what a v3 order line references. */
  readonly productId: number
  /** The id the integrator's platform gave it, returned to the service as `external_id`. */
  readonly externalId: string
  readonly title: string
  /** Minor units, as the shopper saw it. */
  readonly price: number
}

const readRawBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

/**
 * The create-product URL: verifies each delivery on the raw bytes before decoding JSON, refuses
 * (401) anything unsigned, stale or forged, "creates" the product on the integrator's platform
 * and answers `{external_id}`. A redelivery of the same product gets the same answer.
 */
export const createProductReceiver = (options: { readonly secret: string; readonly onProduct: (product: CreatedProduct) => void }): Server => {
  const known = new Map<number, CreatedProduct>()
  return createServer(async (req, res) => {
    const rawBody = await readRawBody(req)
    const verdict = verifyWebhook({ rawBody, headers: req.headers, secret: options.secret })
    if (!verdict.ok) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: verdict.reason }))
      return
    }
    const body = JSON.parse(rawBody.toString("utf8")) as {
      readonly product?: { readonly product_id?: unknown; readonly title?: unknown; readonly price?: unknown }
    }
    const productId = body.product?.product_id
    if (typeof productId !== "number") {
      res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ error: "no product.product_id" }))
      return
    }
    let product = known.get(productId)
    if (product === undefined) {
      const price = body.product?.price
      product = {
        productId,
        externalId: `shop-product-${productId}`,
        title: String(body.product?.title ?? ""),
        price: typeof price === "number" ? price : 0
      }
      known.set(productId, product)
      options.onProduct(product)
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ external_id: product.externalId }))
  })
}

/** Step 1: the Store and scopes of the key; fails unless the key may write orders. */
export const checkStore = async (client: SigncraftClient) => {
  const { body } = await client.v3.v3Stores.me({})
  const { id, platform, scopes } = body.data
  if (!scopes.includes("orders:write")) throw new Error(`The key of Store ${id} lacks orders:write (it has ${scopes.join(", ")})`)
  return { id, platform, scopes }
}

/**
 * Steps 3 and 4: translates a v2 order body (as once sent to `POST /api/v2/orders`) and sends it
 * to v3. `products` maps the `external_id`s answered to `product:created` to v3 product ids.
 */
export const migrateV2Order = async (client: SigncraftClient, v2Order: unknown, products: ReadonlyMap<string, number>) => {
  const decoded = orders.decodeRequest(orders.V2OrderRequest)(v2Order)
  if (Result.isFailure(decoded)) throw new Error(`Not a v2 order: ${JSON.stringify(decoded.failure)}`)
  const translated = orders.v2OrderToV3(decoded.success, { resolveProductId: (externalId) => products.get(externalId) })
  if (Result.isFailure(translated)) throw new Error(`Cannot translate: ${JSON.stringify(translated.failure)}`)
  // One logical write, one key: rerunning the migration replays the first answer (no duplicate).
  return client.v3.v3Commerce.createOrder({ payload: translated.success, idempotencyKey: `v2-order-${decoded.success.external_id}` })
}

/** Options of {@link runIntegrator}. */
export interface IntegratorOptions {
  readonly baseUrl: string
  readonly apiKey: string
  /** The integration's signing secret. */
  readonly signingSecret: string
  /** Port of the create-product URL (0: any free port). */
  readonly port: number
  /** Called once the create-product URL listens: configure the integration, finish a design. */
  readonly onReady: (createProductUrl: string) => Promise<void> | void
  /** The v2 order to migrate, built once the product's `external_id` is known. */
  readonly v2Order: (product: CreatedProduct) => unknown
  readonly log: (line: string) => void
  /** Passed to the client, e.g. for tests. */
  readonly fetch?: typeof globalThis.fetch
}

/** The whole flow: check, receive `product:created`, migrate a v2 order and send it. */
export const runIntegrator = async (options: IntegratorOptions) => {
  const client = new SigncraftClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    // Request ids are what support asks for: log one per attempt.
    onAttempt: (event: AttemptEvent) =>
      options.log(`${event.method} ${new URL(event.url).pathname} -> ${event.status ?? "network error"} ${event.requestId ?? ""}`.trimEnd()),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch })
  })
  const store = await checkStore(client)
  options.log(`Store ${store.id} on ${store.platform}, scopes: ${store.scopes.join(" ")}`)

  let received: (product: CreatedProduct) => void = () => {}
  const firstProduct = new Promise<CreatedProduct>((resolve) => {
    received = resolve
  })
  const receiver = createProductReceiver({ secret: options.signingSecret, onProduct: (product) => received(product) })
  await new Promise<void>((resolve) => receiver.listen(options.port, "127.0.0.1", resolve))
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/products`
    await options.onReady(url)
    const product = await firstProduct
    options.log(`product:created: product ${product.productId} is ${product.externalId} on our platform`)
    const sent = await migrateV2Order(client, options.v2Order(product), new Map([[product.externalId, product.productId]]))
    options.log(`order ${sent.body.data.id} ${sent.body.data.status} (${sent.body.meta.request_id})`)
    return { store, product, order: sent.body.data, replayed: sent.headers.get("idempotency-replay") === "true" }
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const need = (name: string): string => {
    const value = process.env[name]
    if (value === undefined || value === "") throw new Error(`Set ${name}`)
    return value
  }
  runIntegrator({
    baseUrl: need("SIGNCRAFT_BASE_URL"),
    apiKey: need("SIGNCRAFT_API_KEY"),
    signingSecret: need("SIGNCRAFT_SIGNING_SECRET"),
    port: Number(process.env.PORT ?? "4100"),
    onReady: (url) => console.log(`create-product URL: ${url}; set it on the integration and finish a design`),
    v2Order: (product) => ({
      integration_id: Number(need("SIGNCRAFT_INTEGRATION_ID")),
      external_id: `demo-${Date.now()}`,
      external_order_number: "#1001",
      currency: "USD",
      products: [{ external_id: product.externalId, quantity: 1, price: product.price }]
    }),
    log: (line) => console.log(line)
  }).catch((error: unknown) => {
    console.error(error instanceof SigncraftProblem ? `${error.status} ${error.code}: ${error.detail} (${error.requestId})` : error)
    process.exitCode = 1
  })
}
