import { toPointer } from "../input/field-error.js"

/**
 * Round-tripping v2 spellings that v3 cannot express.
 *
 * v2 `height_strategy` has two spellings per canonical value (`WIDTH`|`DYNAMIC` → `fixed_width`,
 * `HEIGHT`|`FIXED` → `fixed_height`), so the canonical document alone cannot tell a v2 client which
 * one it wrote. Rather than leak a v3 wire field, `pricingV2ToV3` returns the non-default spellings
 * as side data keyed by the JSON Pointer of the v3 member they stand for, e.g.
 * `{"/sizes/3/sizing_strategy": "DYNAMIC"}`. Storage persists that map next to the document and
 * hands it back to `pricingV3ToV2`. Default spellings (`WIDTH`, `HEIGHT`) are never recorded.
 *
 * Staleness is harmless: a recorded spelling is used only while it still spells the member's
 * current canonical value, otherwise the default is emitted. Storage should still replace the map
 * on every v2 write and drop it on every v3 write (a v3 client never chose a legacy spelling, and a
 * reordered `sizes` array would otherwise lend one size's spelling to another).
 */

/** Non-default legacy spellings, keyed by JSON Pointer into the v3 document. */
export type LegacySpellings = Readonly<Record<string, string>>

/** Pointer key of a size's `sizing_strategy` in the v3 document. */
export const sizingStrategyKey = (sizeIndex: number): string => toPointer(["sizes", sizeIndex, "sizing_strategy"])

/** The spelling recorded under `key`, if any (own entries only). */
export const recordedSpelling = (spellings: LegacySpellings, key: string): string | undefined =>
  Object.hasOwn(spellings, key) ? spellings[key] : undefined
