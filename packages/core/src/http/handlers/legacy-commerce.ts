import { Effect, Option, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { majorToMinor } from "../../domain/currency.js"
import { ValidationFailed } from "../../domain/errors.js"
import type { FieldError } from "../../domain/input/field-error.js"
import { conversionFault } from "../../domain/orders/currency-fault.js"
import { legacyOrderDraft } from "../../domain/orders/legacy-order-to-v3.js"
import { legacyProductToV3 } from "../../domain/orders/legacy-product-to-v3.js"
import { v2OrderToV3 } from "../../domain/orders/v2-order-to-v3.js"
import { Customisers } from "../../services/pricing/customisers.js"
import { Identity } from "../../services/credentials/identity.js"
import { Integrations } from "../../services/commerce/integrations.js"
import { Orders } from "../../services/commerce/orders.js"
import { Products } from "../../services/commerce/products.js"
import { SigncraftApi } from "../api/index.js"
import { CurrentPrincipal } from "../middleware/definitions.js"

const refused = (errors: ReadonlyArray<FieldError>) => new ValidationFailed({ errors })

/**
 * The legacy sync's price: `price_breakdown.total` in major units of the Store's currency (the
 * only total the old body carried), converted exactly to minor units; 0 when it is absent.
 */
const legacyPrice = (breakdown: Readonly<Record<string, unknown>>, currency: string): Result.Result<number, FieldError> => {
  const total = breakdown.total
  if (total === undefined || total === null) return Result.succeed(0)
  if (typeof total !== "number" && typeof total !== "string") {
    return Result.fail({ pointer: "/price_breakdown/total", code: "invalid_type", detail: "Must be a number." })
  }
  return Result.mapError(majorToMinor(total, currency), (error) => conversionFault("/price_breakdown/total", error))
}

const legacyTitle = (productId: string, cart: Readonly<Record<string, unknown>>): string => {
  const named = cart.title ?? cart.text ?? cart.name
  return typeof named === "string" && named.trim() !== "" ? named : `Product ${productId}`
}

/**
 * The previous generation's commerce writes, translated to the v3 model (domain/orders) and
 * written through the same services as v3: one write path, the old bodies and statuses kept.
 */
export const LegacyCommerceHandlers = HttpApiBuilder.group(SigncraftApi, "legacyCommerce", (handlers) =>
  Effect.gen(function*() {
    const customisers = yield* Customisers
    const identity = yield* Identity
    const integrations = yield* Integrations
    const orders = yield* Orders
    const products = yield* Products
    return handlers
      .handle("v2CreateOrder", Effect.fn("legacyCommerce.v2CreateOrder")(function*({ payload }) {
          const { storeId } = yield* CurrentPrincipal
          const designs = yield* products.designsByExternalId(storeId, payload.products.map((p) => p.external_id))
          const translated = v2OrderToV3(payload, { resolveProductId: (externalId) => designs.get(externalId) })
          if (Result.isFailure(translated)) return yield* refused(translated.failure)
          const order = yield* orders.record(storeId, translated.success, {
            source: "v2",
            allowedKinds: ["design"],
            integrationPointer: "/integration_id",
            lineItemPointer: (index) => `/products/${index}/external_id`
          })
          return {
            order: {
              order_id: order.id,
              external_id: payload.external_id,
              external_order_number: payload.external_order_number,
              currency: order.currency,
              shipping_line: payload.shipping_line ?? null,
              products: payload.products.map(({ external_id, quantity, price }) => ({ external_id, quantity, price }))
            }
          }
        }))
      .handle("unversionedCreateOrder", Effect.fn("legacyCommerce.unversionedCreateOrder")(function*({ payload }) {
          const { storeId } = yield* CurrentPrincipal
          const known = yield* products.byLegacyReference(storeId, payload.products)
          const translated = legacyOrderDraft(payload, (reference) => known.get(reference))
          if (Result.isFailure(translated)) return yield* refused(translated.failure)
          // The legacy body names no integration, and the operation works for any Store.
          yield* orders.record(storeId, { ...translated.success, integration_id: null }, {
            source: "unversioned",
            allowedKinds: ["product", "design", "legacy"],
            integrationPointer: "",
            lineItemPointer: () => "/products"
          })
          return { ok: true }
        }))
      .handle("unversionedSyncProduct", Effect.fn("legacyCommerce.unversionedSyncProduct")(function*({ params, payload }) {
          const { storeId } = yield* CurrentPrincipal
          const customiser = yield* customisers.find(storeId, params.customiser)
          const store = yield* identity.findStore(storeId)
          const integration = Option.getOrNull(yield* integrations.firstEnabled(storeId))
          const price = legacyPrice(payload.price_breakdown, store.currency)
          if (Result.isFailure(price)) return yield* refused([price.failure])
          const translated = legacyProductToV3(payload, {
            integrationId: integration?.id ?? 0,
            title: legacyTitle(payload.product_id, payload.cart),
            priceAmount: price.success,
            currency: store.currency
          })
          if (Result.isFailure(translated)) return yield* refused(translated.failure)
          const v3 = translated.success
          yield* products.syncLegacy(storeId, {
            kind: "legacy",
            customiserId: customiser.id,
            integrationId: integration?.id ?? null,
            storeProductId: payload.product_id,
            title: v3.title,
            description: null,
            priceAmount: v3.price_amount,
            comparePrice: null,
            currency: v3.currency,
            details: {
              ...(v3.customisations === undefined ? {} : { customisations: v3.customisations }),
              ...(v3.artwork === undefined ? {} : { artwork: v3.artwork }),
              legacy: {
                price_breakdown: payload.price_breakdown,
                ...(payload.product_type_paths === undefined ? {} : { product_type_paths: payload.product_type_paths })
              }
            }
          })
          return { ok: true }
        }))
  }))
