import { Result } from "effect"
import type { FieldError } from "../input/field-error.js"
import { decodeRequest } from "./decode.js"
import { LegacyOrderRequest } from "./legacy-order.js"
import * as legacyOrder from "./legacy-order-to-v3.js"
import { LegacyProductSyncRequest } from "./legacy-product.js"
import * as legacyProduct from "./legacy-product-to-v3.js"
import { V2OrderRequest } from "./v2-order.js"
import * as v2Order from "./v2-order-to-v3.js"
import type { V3OrderRequest } from "./v3-order.js"
import type { V3ProductRequest } from "./v3-product.js"

const decodeV2Order = decodeRequest(V2OrderRequest)
const decodeLegacyOrder = decodeRequest(LegacyOrderRequest)
const decodeLegacyProduct = decodeRequest(LegacyProductSyncRequest)

/**
 * A v2 order request as the v3 order request it becomes. Input that is not a v2 order request
 * (any JSON at all) fails like a rule it breaks: the Result's failure lists each fault.
 */
export const v2OrderToV3 = (input: unknown, ctx: v2Order.V2OrderContext): Result.Result<V3OrderRequest, ReadonlyArray<FieldError>> =>
  Result.flatMap(decodeV2Order(input), (request) => v2Order.v2OrderToV3(request, ctx))

/** A legacy (unversioned) order as a v3 order request; input of another shape fails with its faults. */
export const legacyOrderToV3 = (
  input: unknown,
  ctx: legacyOrder.LegacyOrderContext
): Result.Result<V3OrderRequest, ReadonlyArray<FieldError>> =>
  Result.flatMap(decodeLegacyOrder(input), (request) => legacyOrder.legacyOrderToV3(request, ctx))

/** A legacy product sync as a v3 product request; input of another shape fails with its faults. */
export const legacyProductToV3 = (
  input: unknown,
  ctx: legacyProduct.LegacyProductContext
): Result.Result<V3ProductRequest, ReadonlyArray<FieldError>> =>
  Result.flatMap(decodeLegacyProduct(input), (request) => legacyProduct.legacyProductToV3(request, ctx))
