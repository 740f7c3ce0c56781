import { HeightMeasurementMode, PricingModel, SizingStrategy } from "../enums.js"
import { type LegacySpellings, recordedSpelling, sizingStrategyKey } from "./legacy-spellings.js"
import { canonicalPricingModel, pricingModelDisplayName } from "./model.js"
import type { PriceListV2, PricingDocumentV2, SheetPricingV2, SizeV2 } from "./schema-v2.js"
import { PRICING_OBJECT, type PriceListV3, type PricingDocumentV3, type SheetPricingV3, type SizeV3 } from "./schema-v3.js"
import { VALUE_UNITS_V2 } from "./value-units.js"

/**
 * Pricing document translation between v3 and v2 (Versioning rule 8): `price_list_id` ↔
 * `pricing_id`, `sizing_strategy` ↔ `height_strategy`, sheet `rows` ↔ `pricings` with the `*_cm`
 * names, `value_units` on v2 only, canonical ↔ legacy enum spellings. Members absent from the input
 * stay absent; unfamiliar enum values pass through unchanged.
 *
 * Header members: v3 → v2 maps the ones present in the v3 document; v2 → v3 always writes the full
 * v3 header from the stored context (v2 has no `currency`, and its nullable `pricing_model` is not
 * authoritative). Hence v3 → v2 → v3 returns a v3 document in read form (header present and equal
 * to the context) unchanged, and v2 → v3 → v2 returns a v2 document in read form (`value_units`,
 * legacy `pricing_model` and `customiser_id` present) unchanged, legacy spellings included.
 */

/** Stored facts v2 → v3 needs for the v3 header. */
export interface PricingHeaderContext {
  readonly pricingModel: string
  readonly currency: string
  readonly customiserId: number
}

/** Options of v3 → v2: the legacy spellings storage kept from the last v2 write. */
export interface PricingV3ToV2Context {
  readonly legacySpellings?: LegacySpellings
}

/** v2 → v3 output: the document plus the legacy spellings storage must keep (see legacy-spellings.ts). */
export interface PricingV2ToV3Result {
  readonly document: PricingDocumentV3
  readonly legacySpellings: LegacySpellings
}

const sizeV3ToV2 = (size: SizeV3, index: number, spellings: LegacySpellings): SizeV2 => {
  const { sizing_strategy, height_measurement_mode, ...common } = size
  return {
    ...common,
    ...(sizing_strategy === undefined
      ? {}
      : {
          height_strategy: SizingStrategy.toLegacy(sizing_strategy, recordedSpelling(spellings, sizingStrategyKey(index)))
            .value
        }),
    ...(height_measurement_mode === undefined
      ? {}
      : { height_measurement_mode: HeightMeasurementMode.toLegacy(height_measurement_mode).value })
  }
}

const sizeV2ToV3 = (size: SizeV2): { readonly size: SizeV3; readonly spelling: string | undefined } => {
  const { height_strategy, height_measurement_mode, ...common } = size
  const strategy = height_strategy === undefined ? undefined : SizingStrategy.toCanonical(height_strategy)
  const isDefaultSpelling = strategy === undefined || SizingStrategy.toLegacy(strategy.value).value === height_strategy
  return {
    size: {
      ...common,
      ...(strategy === undefined ? {} : { sizing_strategy: strategy.value }),
      ...(height_measurement_mode === undefined
        ? {}
        : { height_measurement_mode: HeightMeasurementMode.toCanonical(height_measurement_mode).value })
    },
    spelling: strategy?.known === true && !isDefaultSpelling ? height_strategy : undefined
  }
}

const priceListV3ToV2 = ({ price_list_id, ...rest }: PriceListV3): PriceListV2 =>
  price_list_id === undefined ? rest : { pricing_id: price_list_id, ...rest }

const priceListV2ToV3 = ({ pricing_id, ...rest }: PriceListV2): PriceListV3 =>
  pricing_id === undefined ? rest : { price_list_id: pricing_id, ...rest }

const sheetV3ToV2 = (sheet: SheetPricingV3 | null): SheetPricingV2 | null =>
  sheet === null
    ? null
    : {
        pricings: sheet.rows.map((band) => ({
          cmLimitWidth: band.width_limit_cm,
          cmLimitHeight: band.height_limit_cm,
          basePrice: band.base_price,
          pricePerSqCm: band.price_per_sq_cm
        }))
      }

const sheetV2ToV3 = (sheet: SheetPricingV2 | null): SheetPricingV3 | null =>
  sheet === null
    ? null
    : {
        rows: sheet.pricings.map((band) => ({
          width_limit_cm: band.cmLimitWidth,
          height_limit_cm: band.cmLimitHeight,
          base_price: band.basePrice,
          price_per_sq_cm: band.pricePerSqCm
        }))
      }

/** Translates a v3 pricing document to the v2 shape, restoring recorded legacy spellings. */
export const pricingV3ToV2 = (document: PricingDocumentV3, context: PricingV3ToV2Context = {}): PricingDocumentV2 => {
  const spellings = context.legacySpellings ?? {}
  const { pricing_model, customiser_id, sizes, base_pricing, price_lists, sheet_pricing } = document
  return {
    ...(pricing_model === undefined ? {} : { pricing_model: PricingModel.toLegacy(pricing_model).value }),
    ...(customiser_id === undefined ? {} : { customiser_id }),
    value_units: VALUE_UNITS_V2,
    ...(sizes === undefined ? {} : { sizes: sizes.map((size, index) => sizeV3ToV2(size, index, spellings)) }),
    ...(base_pricing === undefined ? {} : { base_pricing }),
    ...(price_lists === undefined ? {} : { price_lists: price_lists.map(priceListV3ToV2) }),
    ...(sheet_pricing === undefined ? {} : { sheet_pricing: sheetV3ToV2(sheet_pricing) })
  }
}

/** The read-only members of a v3 pricing document. */
export interface PricingHeaderV3 {
  readonly object: typeof PRICING_OBJECT
  readonly pricing_model: string
  readonly pricing_model_display_name: string
  readonly currency: string
  readonly customiser_id: number
}

/** The read-only v3 header for a customiser's pricing document. */
export const pricingHeaderV3 = (context: PricingHeaderContext): PricingHeaderV3 => {
  const model = canonicalPricingModel(context.pricingModel)
  return {
    object: PRICING_OBJECT,
    pricing_model: model,
    pricing_model_display_name: pricingModelDisplayName(model),
    currency: context.currency,
    customiser_id: context.customiserId
  }
}

/** A v3 document in read form: its content with the header replaced by the stored one. */
export const withPricingHeaderV3 = (document: PricingDocumentV3, context: PricingHeaderContext): PricingDocumentV3 => ({
  ...document,
  ...pricingHeaderV3(context)
})

/** Translates a v2 pricing document to v3 read form, returning the legacy spellings to persist. */
export const pricingV2ToV3 = (document: PricingDocumentV2, context: PricingHeaderContext): PricingV2ToV3Result => {
  const { sizes, base_pricing, price_lists, sheet_pricing } = document
  const translatedSizes = sizes?.map(sizeV2ToV3)
  const legacySpellings: Record<string, string> = {}
  translatedSizes?.forEach(({ spelling }, index) => {
    if (spelling !== undefined) legacySpellings[sizingStrategyKey(index)] = spelling
  })
  return {
    document: {
      ...pricingHeaderV3(context),
      ...(translatedSizes === undefined ? {} : { sizes: translatedSizes.map(({ size }) => size) }),
      ...(base_pricing === undefined ? {} : { base_pricing }),
      ...(price_lists === undefined ? {} : { price_lists: price_lists.map(priceListV2ToV3) }),
      ...(sheet_pricing === undefined ? {} : { sheet_pricing: sheetV2ToV3(sheet_pricing) })
    },
    legacySpellings
  }
}
