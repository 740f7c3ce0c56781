import { Schema } from "effect"
import { ExternalIdentifier, optionalNullable } from "./fields.js"

const JsonObject = Schema.Record(Schema.String, Schema.Unknown)

/** Body of the deprecated `POST /api/customisers/{customiser}/products` (legacy product sync). */
export const LegacyProductSyncRequest = Schema.Struct({
  product_id: ExternalIdentifier,
  cart: JsonObject,
  price_breakdown: JsonObject,
  custom_background_path: optionalNullable(Schema.String),
  custom_background_original_path: optionalNullable(Schema.String),
  logo_original_path: optionalNullable(Schema.String),
  product_type_paths: optionalNullable(JsonObject)
})
/** Decoded legacy product sync request. */
export type LegacyProductSyncRequest = typeof LegacyProductSyncRequest.Type
