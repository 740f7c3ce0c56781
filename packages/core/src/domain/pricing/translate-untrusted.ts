import { Result } from "effect"
import type { FieldError } from "../input/field-error.js"
import { decodeRequest } from "../orders/decode.js"
import { InvalidTranslationInput } from "../input/translation-input.js"
import { PricingDocumentV2 } from "./schema-v2.js"
import { PricingDocumentV3 } from "./schema-v3.js"
import * as translate from "./translate-pricing.js"

const decodeV2 = decodeRequest(PricingDocumentV2)
const decodeV3 = decodeRequest(PricingDocumentV3)

// Faults of shape: what the translator would trip over. Values outside an enumeration or a range
// are not among them: translation passes unfamiliar stored values through, as reads must.
const SHAPE_FAULTS: ReadonlySet<string> = new Set(["invalid_type", "required"])

// The document when its shape is the translator's; its faults of shape otherwise.
const shaped = <A>(input: unknown, decoded: Result.Result<A, ReadonlyArray<FieldError>>): A => {
  if (Result.isSuccess(decoded)) return decoded.success
  const faults = decoded.failure.filter((fault) => SHAPE_FAULTS.has(fault.code))
  if (faults.length > 0) throw new InvalidTranslationInput({ errors: faults })
  // Only values the schema does not know: the shape is the document's, which is all translation reads.
  return input as A
}

/**
 * Translates a v2 pricing document to v3 read form, returning the legacy spellings to persist.
 * Input that is not a v2 pricing document (`null`, `{sizes: 5}`) throws
 * {@link InvalidTranslationInput} naming each fault; validate first (`validatePricingV2`) to
 * check the rules beyond the shape.
 */
export const pricingV2ToV3 = (document: unknown, context: translate.PricingHeaderContext): translate.PricingV2ToV3Result =>
  translate.pricingV2ToV3(shaped(document, decodeV2(document)), context)

/**
 * Translates a v3 pricing document to the v2 shape, restoring recorded legacy spellings. Input
 * that is not a v3 pricing document throws {@link InvalidTranslationInput} naming each fault.
 */
export const pricingV3ToV2 = (document: unknown, context: translate.PricingV3ToV2Context = {}): PricingDocumentV2 =>
  translate.pricingV3ToV2(shaped(document, decodeV3(document)), context)
