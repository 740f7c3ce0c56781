import { PricingModel } from "../enums.js"
import { compileDecoder } from "./compile.js"
import { checkModelConsistency } from "./consistency.js"
import { checkIdentities } from "./identities.js"
import { checkLineKeys } from "./line-keys.js"
import { canonicalPricingModel, isWritablePricingModel, pricingModelDisplayName, pricingModelWriteFault } from "./model.js"
import { isRawObject } from "./raw.js"
import { type ReadOnlyMember, checkReadOnly, isInteger, isString } from "./read-only.js"
import { PRICING_OBJECT, PricingDocumentV3 } from "./schema-v3.js"
import { type PricingValidation, type StoredPricingContext, settle } from "./validation.js"

// Members the API does not define are refused (docs/input-handling.md): dropping a misspelt
// `price_lists` would otherwise delete every price list.
const decode = compileDecoder(PricingDocumentV3, { onExcessProperty: "error" })

const readOnlyMembers = (stored: StoredPricingContext, model: string): ReadonlyArray<ReadOnlyMember> => [
  { name: "object", accepted: [PRICING_OBJECT], hasExpectedType: isString },
  { name: "pricing_model", accepted: [model], hasExpectedType: isString, checkValue: PricingModel.checkWrite },
  { name: "pricing_model_display_name", accepted: [pricingModelDisplayName(model)], hasExpectedType: isString },
  { name: "currency", accepted: [stored.currency], hasExpectedType: isString },
  { name: "customiser_id", accepted: [stored.customiserId], hasExpectedType: isInteger }
]

/** Outcome of validating a v3 pricing write. */
export type PricingValidationV3 = PricingValidation<PricingDocumentV3>

/**
 * Validates a v3 pricing write body (PUT, or the result of applying a PATCH) against the stored
 * customiser. Never throws, whatever `input` is; a member the document does not define is an
 * `unknown_field` fault.
 */
export const validatePricingV3 = (input: unknown, stored: StoredPricingContext): PricingValidationV3 => {
  const model = canonicalPricingModel(stored.pricingModel)
  const root = isRawObject(input) ? input : undefined
  const ruleFaults =
    root === undefined
      ? []
      : [
          ...checkReadOnly(root, [], readOnlyMembers(stored, model)),
          ...checkLineKeys(root, []),
          ...checkIdentities(root, [], stored.identities, "price_list_id"),
          ...(isWritablePricingModel(model) ? checkModelConsistency(root, [], model) : [])
        ]
  return settle({ decoded: decode(input), basePath: [], modelFault: pricingModelWriteFault(model, []), ruleFaults })
}
