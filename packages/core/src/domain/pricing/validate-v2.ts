import { PricingModel } from "../enums.js"
import { type Decoded, compileDecoder } from "./compile.js"
import { checkModelConsistency } from "./consistency.js"
import { checkIdentities } from "./identities.js"
import { checkLineKeys } from "./line-keys.js"
import { canonicalPricingModel, isWritablePricingModel, pricingModelWriteFault } from "./model.js"
import { isRawObject, member } from "./raw.js"
import { type ReadOnlyMember, checkReadOnly, isInteger, isStringOrNull } from "./read-only.js"
import { PricingPutBodyV2, type PricingWriteDocumentV2 } from "./schema-v2.js"
import { type PricingValidation, type StoredPricingContext, settle } from "./validation.js"

// v2 bodies keep ignoring unknown members: their behaviour is frozen (docs/input-handling.md).
const decode = compileDecoder(PricingPutBodyV2)

const BASE_PATH = ["pricing"] as const

// v2 echoes the model in its legacy spelling and allows null; accepting the canonical spelling too
// costs nothing and spares clients that already switched vocabularies.
const readOnlyMembers = (stored: StoredPricingContext, model: string): ReadonlyArray<ReadOnlyMember> => [
  {
    name: "pricing_model",
    accepted: [PricingModel.toLegacy(model).value, model, null],
    hasExpectedType: isStringOrNull,
    // A v2 client is told the legacy spellings it may use.
    checkValue: (value, path) =>
      PricingModel.isCanonical(value) ? PricingModel.checkWrite(value, path) : PricingModel.checkLegacyWrite(value, path)
  },
  { name: "customiser_id", accepted: [stored.customiserId], hasExpectedType: isInteger }
]

const innerDocument = (decoded: Decoded<PricingPutBodyV2>): Decoded<PricingWriteDocumentV2> =>
  decoded.ok ? { ok: true, value: decoded.value.pricing } : decoded

/** Outcome of validating a v2 pricing write; `document` is the inner `pricing` object. */
export type PricingValidationV2 = PricingValidation<PricingWriteDocumentV2>

/**
 * Validates a v2 PUT body (`{pricing: {...}}`) against the stored customiser. Pointers are into the
 * body, so they start with `/pricing`. Never throws, whatever `input` is.
 */
export const validatePricingV2 = (input: unknown, stored: StoredPricingContext): PricingValidationV2 => {
  const model = canonicalPricingModel(stored.pricingModel)
  const pricing = member(input, "pricing")
  const root = isRawObject(pricing) ? pricing : undefined
  const ruleFaults =
    root === undefined
      ? []
      : [
          ...checkReadOnly(root, BASE_PATH, readOnlyMembers(stored, model)),
          ...checkLineKeys(root, BASE_PATH),
          ...checkIdentities(root, BASE_PATH, stored.identities, "pricing_id"),
          ...(isWritablePricingModel(model) ? checkModelConsistency(root, BASE_PATH, model) : [])
        ]
  return settle({
    decoded: innerDocument(decode(input)),
    basePath: BASE_PATH,
    modelFault: pricingModelWriteFault(model, BASE_PATH),
    ruleFaults
  })
}
