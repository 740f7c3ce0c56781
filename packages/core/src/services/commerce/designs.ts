import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { IntegrationCallbackFailed, type NotFound, type ValidationFailed } from "../../domain/errors.js"
import { productCreatedPayload } from "../../domain/orders/webhook-payloads.js"
import { signatureHeaders } from "../../domain/webhooks/signature.js"
import type { V3Customisation } from "../../domain/orders/v3-product.js"
import { decodeSingleRow } from "../../storage/rows.js"
import { Customisers } from "../pricing/customisers.js"
import { Integrations } from "./integrations.js"
import { OutboundHttp } from "../outbound/outbound-http.js"
import { Outbox } from "../webhooks/outbox.js"
import type { StoredProduct } from "../../domain/orders/stored-product.js"
import { Products, toProductRecord } from "./products.js"

/** A shopper's finished design, as the storefront sends it (docs/commerce.md). */
export interface FinishedDesign {
  readonly integration_id: number
  readonly title: string
  /** Minor units. */
  readonly price: number
  readonly compare_price?: number
  /** Defaults to the Store's currency. */
  readonly currency?: string
  readonly description?: string
  readonly customisations?: ReadonlyArray<V3Customisation>
  readonly product_image_url?: string
}

/** A design the integrator took: the product and the `external_id` it answered. */
export interface AcceptedDesign {
  readonly product: StoredProduct
  readonly externalId: string
}

const CurrencyRow = Schema.Struct({ currency: Schema.String })

const externalIdOf = (body: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed !== "object" || parsed === null || !("external_id" in parsed)) return undefined
    const id = parsed.external_id
    // Integrators answer numeric ids too; the service keeps every id as text.
    if (typeof id === "number" && Number.isSafeInteger(id)) return String(id)
    return typeof id === "string" && id.trim() !== "" ? id : undefined
  } catch {
    // Not JSON: no external_id.
    return undefined
  }
}

/**
 * The custom-integration flow's first half: record the design as a product and queue
 * `product:created` in one transaction, then POST the same signed body synchronously to the
 * integration's create-product URL and keep the `external_id` it answers. A failed callback
 * leaves the design (and its queued event) in place and fails with IntegrationCallbackFailed.
 */
export class Designs extends Context.Service<Designs, {
  readonly finish: (
    customiserId: number,
    design: FinishedDesign
  ) => Effect.Effect<AcceptedDesign, NotFound | ValidationFailed | IntegrationCallbackFailed>
}>()("signcraft/Designs") {
  static readonly layer = Layer.effect(
    Designs,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const customisers = yield* Customisers
      const integrations = yield* Integrations
      const products = yield* Products
      const outbox = yield* Outbox
      const http = yield* OutboundHttp

      const storeCurrency = (storeId: number) =>
        sql`SELECT currency FROM stores WHERE id = ${storeId}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeSingleRow(CurrencyRow)),
          Effect.map((row) => row.currency)
        )

      return Designs.of({
        finish: Effect.fn("Designs.finish")(function*(customiserId, design) {
            const customiser = yield* customisers.findAnywhere(customiserId)
            const storeId = customiser.storeId
            const integration = yield* integrations.usable(storeId, design.integration_id, "enabled", "/integration_id")
            const currency = design.currency ?? (yield* storeCurrency(storeId))
            const recorded = yield* Effect.gen(function*() {
              const product = yield* products.create(storeId, {
                kind: "design",
                customiserId: customiser.id,
                integrationId: integration.id,
                storeProductId: null,
                title: design.title,
                description: design.description ?? null,
                priceAmount: design.price,
                comparePrice: design.compare_price ?? null,
                currency,
                details: {
                  ...(design.customisations === undefined ? {} : { customisations: design.customisations }),
                  ...(design.product_image_url === undefined ? {} : { product_image_url: design.product_image_url })
                }
              })
              const payload = productCreatedPayload(toProductRecord(product))
              const event = yield* outbox.enqueue(storeId, "product:created", payload)
              return { product, payload, event }
            }).pipe(sql.withTransaction, Effect.orDie)

            const body = JSON.stringify(recorded.payload)
            const now = yield* Clock.currentTimeMillis
            const failed = (reason: string) => new IntegrationCallbackFailed({ productId: recorded.product.id, reason })
            const answer = yield* http.post(integration.createProductUrl, {
              body,
              headers: {
                ...signatureHeaders(integration.signingSecret, body, new Date(now)),
                "x-webhook-id": `evt_${recorded.event.id}`,
                "x-webhook-topic": "product:created"
              }
            }).pipe(Effect.mapError((error) => failed(error.reason)))
            if (answer.bodyRead === "capped") return yield* failed("response_too_large")
            if (answer.bodyRead === "broken") return yield* failed("network")
            if (answer.status !== 200) return yield* failed(`answered HTTP ${answer.status}`)
            const externalId = externalIdOf(answer.body)
            if (externalId === undefined) return yield* failed("the answer has no external_id")
            const product = yield* products.setExternalId(recorded.product.id, externalId)
            return { product, externalId }
          })
      })
    })
  )
}
