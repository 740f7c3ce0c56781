import type { LegacySpellings } from "./legacy-spellings.js"
import type { PricingDocumentV2 } from "./schema-v2.js"
import type { PricingDocumentV3 } from "./schema-v3.js"
import { type PricingHeaderContext, pricingHeaderV3, pricingV3ToV2 } from "./translate-pricing.js"

/**
 * What storage keeps of a pricing document: the v3 document without its read-only header. The
 * header (`object`, `pricing_model`, `pricing_model_display_name`, `currency`, `customiser_id`) is
 * derived from the customiser and its Store on every read, so it can never contradict them.
 */
export type PricingContent = Omit<
  PricingDocumentV3,
  "object" | "pricing_model" | "pricing_model_display_name" | "currency" | "customiser_id"
>

/** The pricing of a customiser nobody has priced yet: no sizes, no price lists, no sheet bands. */
export const EMPTY_PRICING_CONTENT: PricingContent = {
  sizes: [],
  base_pricing: { mode: "included_in_price_lists", rows: [] },
  price_lists: [],
  sheet_pricing: null
}

/** The content of a validated v3 document: its header dropped. */
export const pricingContentOf = (document: PricingDocumentV3): PricingContent => {
  const { object: _object, pricing_model: _model, pricing_model_display_name: _name, currency: _currency, customiser_id: _id, ...content } =
    document
  return content
}

/** The v3 document as read: the stored header first, then the content. */
export const pricingReadV3 = (content: PricingContent, context: PricingHeaderContext): PricingDocumentV3 => ({
  ...pricingHeaderV3(context),
  ...content
})

/** The v2 document as read, with the legacy spellings the last v2 write chose. */
export const pricingReadV2 = (
  content: PricingContent,
  context: PricingHeaderContext,
  legacySpellings: LegacySpellings
): PricingDocumentV2 => pricingV3ToV2(pricingReadV3(content, context), { legacySpellings })
