import { applyMergePatch } from "../input/merge-patch.js"
import { type PricingContent, pricingContentOf, pricingReadV3 } from "./content.js"
import { assignPricingIds, identitiesOf } from "./identities.js"
import type { LegacySpellings } from "./legacy-spellings.js"
import { type PricingHeaderContext, pricingV2ToV3 } from "./translate-pricing.js"
import { validatePricingV2 } from "./validate-v2.js"
import { validatePricingV3 } from "./validate-v3.js"
import type { PricingValidationCode, StoredPricingContext } from "./validation.js"
import type { FieldError } from "../input/field-error.js"

/**
 * The three ways a pricing document is written (v3 PUT, v3 merge PATCH, v2 PUT), each decided
 * from the body and the stored pricing: what to store, or every fault of the request. Pure, so a
 * migration script or a dry run gets exactly the answer the API would give.
 */

/** The stored pricing a write is decided against. */
export interface CurrentPricing {
  readonly header: PricingHeaderContext
  readonly content: PricingContent
  /** The last id the customiser's pricing-id counter gave out (see identities.ts). */
  readonly lastPricingId: number
}

/** What to store (with the counter after the ids this write drew), or why not. */
export type PricingWriteOutcome =
  | {
    readonly ok: true
    readonly content: PricingContent
    readonly legacySpellings: LegacySpellings
    readonly lastPricingId: number
  }
  | { readonly ok: false; readonly code: PricingValidationCode; readonly errors: ReadonlyArray<FieldError> }

const storedContext = (current: CurrentPricing): StoredPricingContext => ({
  ...current.header,
  identities: identitiesOf(current.content)
})

// Elements written without an id get theirs only once the whole document is accepted.
const accepted = (content: PricingContent, legacySpellings: LegacySpellings, current: CurrentPricing): PricingWriteOutcome => {
  const assigned = assignPricingIds(content, current.lastPricingId)
  return { ok: true, content: assigned.content, legacySpellings, lastPricingId: assigned.lastId }
}

/** v3 PUT: the body is the whole new document. Legacy spellings are dropped: a v3 client chose none. */
export const decidePricingPutV3 = (body: unknown, current: CurrentPricing): PricingWriteOutcome => {
  const verdict = validatePricingV3(body, storedContext(current))
  return verdict.ok ? accepted(pricingContentOf(verdict.document), {}, current) : verdict
}

/**
 * v3 PATCH: RFC 7396 applied to the document as read (header included, so a patch may restate
 * it), then validated as a whole, like a PUT of the result. Pointers in faults therefore name
 * members of the patched document, which are the members the patch touched or left in place.
 *
 * A `null` for a member the document lacks removes nothing, so the merge drops it; but a member
 * the API does not define is refused like any other (docs/input-handling.md: a misspelt
 * `sheet_pricng: null` must not answer 200 while `sheet_pricing` stays). The patched document is
 * checked once more with those nulls kept (only when there are some), and only its
 * `unknown_field` faults are taken.
 */
export const decidePricingPatchV3 = (patch: unknown, current: CurrentPricing): PricingWriteOutcome => {
  const read = pricingReadV3(current.content, current.header)
  let absentRemovals = 0
  const outcome = decidePricingPutV3(applyMergePatch(read, patch, { onAbsentRemoval: () => absentRemovals++ }), current)
  if (absentRemovals === 0) return outcome
  const withRemovals = applyMergePatch(read, patch, { keepAbsentRemovals: true })
  const probe = validatePricingV3(withRemovals, storedContext(current))
  const unknown = probe.ok ? [] : probe.errors.filter((fault) => fault.code === "unknown_field")
  if (unknown.length === 0) return outcome
  const others = outcome.ok ? [] : outcome.errors
  const known = new Set(others.map((fault) => `${fault.code} ${fault.pointer}`))
  return {
    ok: false,
    code: "validation_failed",
    errors: [...unknown.filter((fault) => !known.has(`${fault.code} ${fault.pointer}`)), ...others]
  }
}

/** v2 PUT: the body is `{pricing: {...}}`; the v2 spellings v3 cannot express are kept beside it. */
export const decidePricingPutV2 = (body: unknown, current: CurrentPricing): PricingWriteOutcome => {
  const verdict = validatePricingV2(body, storedContext(current))
  if (!verdict.ok) return verdict
  const translated = pricingV2ToV3(verdict.document, current.header)
  return accepted(pricingContentOf(translated.document), translated.legacySpellings, current)
}
