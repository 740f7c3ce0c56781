/** Pricing documents (v3 and v2): schemas, validation, translation, plus the customiser translators. */

export {
  type FieldErrorAnnotation,
  type FieldErrorAnnotations,
  fieldErrorAnnotationKey,
  fieldErrorAnnotations,
  readFieldErrorAnnotation
} from "../input/field-error.js"
export {
  isAtLeast,
  isAtMost,
  isFiniteNumber,
  isMinLengthString,
  isOneOf,
  isWholeNumber,
  predicateOf
} from "./checks.js"
export {
  EMPTY_PRICING_CONTENT,
  type PricingContent,
  pricingContentOf,
  pricingReadV2,
  pricingReadV3
} from "./content.js"
export { type CompiledDecoder, type CompileOptions, type Decoded, compileDecoder } from "./compile.js"
export { checkModelConsistency } from "./consistency.js"
export {
  type CustomiserFacts,
  CustomiserV2,
  CustomiserV3,
  customiserV2Of,
  customiserV2ToV3,
  customiserV3Of,
  customiserV3ToV2
} from "./customiser.js"
export {
  BasePriceAmount,
  FiniteNumber,
  Integer,
  LineLimit,
  NonEmptyString,
  NonNegativeInteger,
  NonNegativeNumber,
  PerLineAmounts,
  enumString
} from "./fields.js"
export {
  type AssignedIds,
  type PricingIdentities,
  assignPricingIds,
  checkIdentities,
  identitiesOf,
  restorePricingIds
} from "./identities.js"
export { issueToFieldErrors } from "../input/schema-issues.js"
export { type LegacySpellings, sizingStrategyKey } from "./legacy-spellings.js"
export { LINE_KEYS, MAX_LINES, checkLineKeys } from "./line-keys.js"
export {
  canonicalPricingModel,
  isWritablePricingModel,
  pricingModelDisplayName,
  pricingModelWriteFault
} from "./model.js"
export { BasePricing, BasePricingRow, PriceListRow, Shipping } from "./schema-shared.js"
export {
  PriceListV2,
  PricingDocumentV2,
  PricingPutBodyV2,
  PricingWriteDocumentV2,
  SheetBandV2,
  SheetPricingV2,
  SizeV2
} from "./schema-v2.js"
export { PRICING_OBJECT, PriceListV3, PricingDocumentV3, SheetBandV3, SheetPricingV3, SizeV3 } from "./schema-v3.js"
export { formatTimestampV2, formatTimestampV3 } from "../timestamp.js"
export {
  type PricingHeaderContext,
  type PricingHeaderV3,
  type PricingV2ToV3Result,
  type PricingV3ToV2Context,
  pricingHeaderV3,
  withPricingHeaderV3
} from "./translate-pricing.js"
// The public translators check their input's shape: an embedder may hand them anything.
export { pricingV2ToV3, pricingV3ToV2 } from "./translate-untrusted.js"
export { type PricingValidationV2, validatePricingV2 } from "./validate-v2.js"
export { type PricingValidationV3, validatePricingV3 } from "./validate-v3.js"
export {
  type CurrentPricing,
  decidePricingPatchV3,
  decidePricingPutV2,
  decidePricingPutV3,
  type PricingWriteOutcome
} from "./writes.js"
export type { PricingValidation, PricingValidationCode, StoredPricingContext } from "./validation.js"
export { VALUE_UNITS_V2, ValueUnitsV2 } from "./value-units.js"
