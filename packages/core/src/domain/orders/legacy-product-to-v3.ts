import { Result } from "effect"
import type { FieldError } from "../input/field-error.js"
import { cartToCustomisations } from "./cart-customisations.js"
import type { LegacyProductSyncRequest } from "./legacy-product.js"
import type { V3Artwork, V3ProductRequest } from "./v3-product.js"

/**
 * The required v3 product fields that the legacy sync body does not carry
 * (its `price_breakdown` has no documented shape), supplied by the migration.
 */
export interface LegacyProductContext {
  readonly integrationId: number
  readonly title: string
  /** Price in minor units of `currency`. */
  readonly priceAmount: number
  /** Uppercase ISO 4217 code. */
  readonly currency: string
}

type ArtworkSource = "custom_background_path" | "custom_background_original_path" | "logo_original_path"

const ARTWORK_FIELDS: ReadonlyArray<readonly [ArtworkSource, keyof V3Artwork]> = [
  ["custom_background_path", "custom_background_url"],
  ["custom_background_original_path", "custom_background_original_url"],
  ["logo_original_path", "source_file_url"]
]

const translateArtwork = (req: LegacyProductSyncRequest): { artwork: V3Artwork; faults: ReadonlyArray<FieldError> } => {
  const artwork: Partial<Record<keyof V3Artwork, string>> = {}
  const faults: Array<FieldError> = []
  for (const [source, target] of ARTWORK_FIELDS) {
    const url = req[source]
    if (url === null || url === undefined) continue
    if (URL.canParse(url)) artwork[target] = url
    else faults.push({ pointer: `/${source}`, code: "invalid_url", detail: "v3 artwork fields take absolute URLs" })
  }
  return { artwork, faults }
}

/**
 * Translates a legacy product sync body into a v3 product write request, or the
 * faults that prevent it. `price_breakdown` and `product_type_paths` have no v3
 * counterpart and are not carried over.
 */
export const legacyProductToV3 = (
  req: LegacyProductSyncRequest,
  ctx: LegacyProductContext
): Result.Result<V3ProductRequest, ReadonlyArray<FieldError>> => {
  const customisations = cartToCustomisations(req.cart)
  const { artwork, faults: artworkFaults } = translateArtwork(req)
  const faults = [...(Result.isFailure(customisations) ? customisations.failure : []), ...artworkFaults]
  if (Result.isFailure(customisations) || faults.length > 0) return Result.fail(faults)
  return Result.succeed({
    integration_id: ctx.integrationId,
    store_product_id: req.product_id,
    title: ctx.title,
    price_amount: ctx.priceAmount,
    currency: ctx.currency,
    customisations: customisations.success,
    ...(Object.keys(artwork).length > 0 ? { artwork } : {})
  })
}
