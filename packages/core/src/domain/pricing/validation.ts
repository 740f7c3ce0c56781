import { type FieldError, toPointer } from "../input/field-error.js"
import type { Decoded } from "./compile.js"
import type { PricingIdentities } from "./identities.js"
import { compareByPointer } from "./pointer-order.js"
import type { Path } from "./raw.js"

/** The result shape shared by the v2 and v3 pricing validators. */

/** What storage knows about the customiser whose pricing is being written. */
export interface StoredPricingContext {
  /** Canonical pricing model (a legacy spelling is tolerated and normalised). */
  readonly pricingModel: string
  /** Uppercase ISO 4217 code. */
  readonly currency: string
  readonly customiserId: number
  /** The ids of the stored document: the only ids a write may name. */
  readonly identities: PricingIdentities
}

/** Problem `code` of a refused pricing document. */
export type PricingValidationCode = "validation_failed" | "invalid_pricing_model"

/** A validated document, or every fault found in it. */
export type PricingValidation<D> =
  | { readonly ok: true; readonly document: D }
  | { readonly ok: false; readonly code: PricingValidationCode; readonly errors: ReadonlyArray<FieldError> }

/** Everything one validation pass found, before the verdict. */
export interface ValidationFindings<D> {
  readonly decoded: Decoded<D>
  /** Pointer of the document inside the body (`["pricing"]` on v2), where a catch-all fault would point. */
  readonly basePath: Path
  /** Set when the customiser's pricing cannot be written at all. */
  readonly modelFault: FieldError | undefined
  /** Cross-field faults found on the raw body (read-only guards, line keys, ids, model consistency). */
  readonly ruleFaults: ReadonlyArray<FieldError>
}

/**
 * Turns findings into the verdict. The code is `invalid_pricing_model` when the model forbids any
 * write, or when model contradictions are the only faults; otherwise `validation_failed`. Either
 * way `errors` lists every fault, in document order, so one round trip shows the client everything
 * to fix. The model fault, when there is one, comes first: it blocks the write whatever else is fixed.
 */
export const settle = <D>({ decoded, basePath, modelFault, ruleFaults }: ValidationFindings<D>): PricingValidation<D> => {
  const schemaFaults = decoded.ok ? [] : decoded.errors
  const faults = [...ruleFaults, ...schemaFaults].sort(compareByPointer)
  if (modelFault !== undefined) {
    return { ok: false, code: "invalid_pricing_model", errors: [modelFault, ...faults] }
  }
  if (decoded.ok && faults.length === 0) return { ok: true, document: decoded.value }
  // A failed decode always yields at least one fault; this keeps the verdict honest if it ever did not.
  const errors: ReadonlyArray<FieldError> =
    faults.length > 0
      ? faults
      : [{ pointer: toPointer(basePath), code: "invalid_value", detail: "The pricing document is invalid." }]
  const onlyModelFaults = errors.every((error) => error.code === "invalid_pricing_model")
  return { ok: false, code: onlyModelFaults ? "invalid_pricing_model" : "validation_failed", errors }
}
