import { type FieldError, toPointer } from "../input/field-error.js"
import { PricingModel, type WritablePricingModel } from "../enums.js"
import type { Path } from "./raw.js"

/** Facts about a customiser's pricing model that the pricing document depends on. */

const DISPLAY_NAMES: { readonly [K in PricingModel]: string } = {
  simple_letter: "Simple letter",
  advanced_letter: "Advanced letter",
  frame_fit: "Frame fit",
  legacy_fixed_height: "Fixed height (legacy)"
}

/** Canonical spelling of a stored model; storage may hand over a legacy spelling, unknown values pass through. */
export const canonicalPricingModel = (stored: string): string =>
  PricingModel.isCanonical(stored) ? stored : PricingModel.toCanonical(stored).value

/** `pricing_model_display_name` for a model; an unfamiliar model is shown as its own value. */
export const pricingModelDisplayName = (model: string): string =>
  PricingModel.isCanonical(model) ? DISPLAY_NAMES[model] : model

/** True when pricing of a customiser on this (canonical) model may be written. */
export const isWritablePricingModel = (model: string): model is WritablePricingModel =>
  PricingModel.writableValues.some((writable) => writable === model)

/**
 * The `invalid_pricing_model` fault for a customiser whose pricing cannot be written at all: the
 * retired `legacy_fixed_height`, or a model newer than this code (whose consistency rules it cannot
 * check, so accepting a write would be a guess).
 */
export const pricingModelWriteFault = (model: string, path: Path): FieldError | undefined => {
  if (isWritablePricingModel(model)) return undefined
  const reason =
    model === "legacy_fixed_height"
      ? "the retired legacy_fixed_height pricing model is read-only"
      : `the pricing model "${model}" is not supported for writes`
  return {
    pointer: toPointer([...path, "pricing_model"]),
    code: "invalid_pricing_model",
    detail: `This customiser's pricing cannot be written: ${reason}.`
  }
}
