import { Schema } from "effect"
import { AbsoluteUrl, CurrencyCode, ExternalIdentifier, NonNegativeInt, NonNegativeNumber, PositiveInt, RequiredText, SnakeCaseKey } from "./fields.js"

/** One customisation choice of a product: stable snake_case `key`, human `label`, chosen `value`. */
export const V3Customisation = Schema.Struct({
  key: SnakeCaseKey,
  label: Schema.String,
  value: Schema.String
})
/** Decoded v3 customisation record. */
export type V3Customisation = typeof V3Customisation.Type

/** Artwork files of a v3 product, every one an optional absolute URL. */
export const V3Artwork = Schema.Struct({
  custom_background_url: Schema.optionalKey(AbsoluteUrl),
  custom_background_original_url: Schema.optionalKey(AbsoluteUrl),
  source_file_url: Schema.optionalKey(AbsoluteUrl),
  preview_image_url: Schema.optionalKey(AbsoluteUrl),
  outline_image_url: Schema.optionalKey(AbsoluteUrl),
  svg_url: Schema.optionalKey(AbsoluteUrl),
  eps_url: Schema.optionalKey(AbsoluteUrl),
  illustrator_pdf_url: Schema.optionalKey(AbsoluteUrl),
  dxf_url: Schema.optionalKey(AbsoluteUrl)
})
/** Decoded v3 artwork object. */
export type V3Artwork = typeof V3Artwork.Type

/** Body of `POST /api/v3/customisers/{customiser_id}/products`. */
export const V3ProductRequest = Schema.Struct({
  integration_id: PositiveInt,
  store_product_id: Schema.optionalKey(ExternalIdentifier),
  title: RequiredText,
  price_amount: NonNegativeInt,
  currency: CurrencyCode,
  width_cm: Schema.optionalKey(NonNegativeNumber),
  height_cm: Schema.optionalKey(NonNegativeNumber),
  customisations: Schema.optionalKey(Schema.Array(V3Customisation)),
  artwork: Schema.optionalKey(V3Artwork)
})
/** Decoded v3 product write request. */
export type V3ProductRequest = typeof V3ProductRequest.Type
