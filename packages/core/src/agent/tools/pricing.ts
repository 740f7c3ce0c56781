import { Effect, Schema } from "effect"
import { pricingReadV3 } from "../../domain/pricing/content.js"
import { PricingDocumentV3 } from "../../domain/pricing/schema-v3.js"
import { decidePricingPatchV3, decidePricingPutV3 } from "../../domain/pricing/writes.js"
import { currentPricingOf, headerOf, outcomeToEffect, pricingDecision } from "../../services/pricing/decisions.js"
import { Customisers } from "../../services/pricing/customisers.js"
import { defineTool } from "../tool.js"
import { READ_ONLY } from "./hints.js"
import { ResourceId } from "./inputs.js"

// The document is checked by the pricing validator (every fault with its pointer), not here.
const PricingWrite = Schema.Struct({ customiser_id: ResourceId, pricing: Schema.Unknown })

/** `get_pricing`: the customiser's v3 pricing document. */
export const getPricingTool = defineTool({
  name: "get_pricing",
  description: "Returns the pricing document (sizes, base pricing, price lists, sheet bands) of a customiser.",
  scopes: ["pricing:read"],
  input: Schema.Struct({ customiser_id: ResourceId }),
  output: PricingDocumentV3,
  hints: READ_ONLY,
  run: Effect.fn("tool.get_pricing")(function*(input, principal) {
      const stored = yield* (yield* Customisers).readPricing(principal.storeId, input.customiser_id)
      return pricingReadV3(stored.content, headerOf(stored))
    })
})

/** `validate_pricing`: the same validation as a write, saving nothing. */
export const validatePricingTool = defineTool({
  name: "validate_pricing",
  description:
    "Validates a whole pricing document for a customiser without saving it. Answers the document as it would be saved, or every fault with its JSON pointer.",
  scopes: ["pricing:read"],
  input: PricingWrite,
  output: Schema.Struct({ valid: Schema.Literal(true), pricing: PricingDocumentV3 }),
  hints: READ_ONLY,
  run: Effect.fn("tool.validate_pricing")(function*(input, principal) {
      const stored = yield* (yield* Customisers).readPricing(principal.storeId, input.customiser_id)
      const accepted = yield* outcomeToEffect(decidePricingPutV3(input.pricing, currentPricingOf(stored)))
      return { valid: true as const, pricing: pricingReadV3(accepted.content, headerOf(stored)) }
    })
})

/** `replace_pricing`: `PUT` — the whole document; omitted sizes, price lists and rows are deleted. */
export const replacePricingTool = defineTool({
  name: "replace_pricing",
  description:
    "Replaces a customiser's whole pricing document. Omitted sizes, price lists and rows are deleted. Validate first with validate_pricing.",
  scopes: ["pricing:write"],
  input: PricingWrite,
  output: PricingDocumentV3,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  run: Effect.fn("tool.replace_pricing")(function*(input, principal) {
      const saved = yield* (yield* Customisers).writePricing(
        principal.storeId,
        input.customiser_id,
        pricingDecision(decidePricingPutV3, input.pricing)
      )
      return pricingReadV3(saved.content, headerOf(saved))
    })
})

/** `patch_pricing`: an RFC 7396 merge patch of the document. */
export const patchPricingTool = defineTool({
  name: "patch_pricing",
  description:
    "Applies an RFC 7396 merge patch to a customiser's pricing document: omitted members stay, null removes a member, arrays are replaced whole.",
  scopes: ["pricing:write"],
  input: Schema.Struct({ customiser_id: ResourceId, patch: Schema.Unknown }),
  output: PricingDocumentV3,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  run: Effect.fn("tool.patch_pricing")(function*(input, principal) {
      const saved = yield* (yield* Customisers).writePricing(
        principal.storeId,
        input.customiser_id,
        pricingDecision(decidePricingPatchV3, input.patch)
      )
      return pricingReadV3(saved.content, headerOf(saved))
    })
})
