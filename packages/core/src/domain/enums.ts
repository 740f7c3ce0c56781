import { type FieldError, toPointer } from "./input/field-error.js"

/**
 * Canonical (v3) and legacy (v2) spellings of every enumeration the service exposes.
 *
 * Reads must survive values this code has never seen (the enumerations are expected to grow and
 * stored data can be older or newer than the code), so the read-side mappings never throw: they
 * return the value unchanged with `known: false`. Writes are the only place a value is refused, and
 * they refuse with a FieldError rather than an exception.
 */

/** Outcome of mapping one value between spellings; an unfamiliar value is passed through with `known: false`. */
export interface EnumMapping {
  readonly value: string
  readonly known: boolean
}

/** A path into a request body, turned into the FieldError's JSON Pointer. */
export type FieldPath = ReadonlyArray<string | number>

/** One canonical value and its legacy spellings; the first spelling is the one emitted by default. */
type SpellingEntry = readonly [canonical: string, legacy: readonly [string, ...Array<string>]]

/** The vocabulary of one enumeration plus its pure mapping and write-check functions. */
export interface EnumDefinition<C extends string, L extends string> {
  /** Field name used in fault details, e.g. `pricing_model`. */
  readonly name: string
  /** Every canonical value, readable and (unless read-only) writable. */
  readonly values: ReadonlyArray<C>
  /** Every legacy spelling. */
  readonly legacyValues: ReadonlyArray<L>
  /** Canonical values a write may set. */
  readonly writableValues: ReadonlyArray<C>
  /** Legacy spellings a previous-generation write may set. */
  readonly writableLegacyValues: ReadonlyArray<L>
  /** True when `value` is one of the canonical values. */
  readonly isCanonical: (value: unknown) => value is C
  /** True when `value` is one of the legacy spellings. */
  readonly isLegacy: (value: unknown) => value is L
  /**
   * Canonical → legacy. `preferred` picks among several legacy spellings of the same canonical
   * value (used to give a v2 client back the spelling it wrote); it is ignored unless it is a
   * spelling of `value`.
   */
  readonly toLegacy: (value: string, preferred?: string) => EnumMapping
  /** Legacy → canonical. */
  readonly toCanonical: (value: string) => EnumMapping
  /** Write-side check of a canonical value: `undefined` when accepted, else the fault at `path`. */
  readonly checkWrite: (value: unknown, path: FieldPath) => FieldError | undefined
  /** Write-side check of a legacy spelling (previous-generation writes). */
  readonly checkLegacyWrite: (value: unknown, path: FieldPath) => FieldError | undefined
}

type CanonicalOf<E extends ReadonlyArray<SpellingEntry>> = E[number][0]
type LegacyOf<E extends ReadonlyArray<SpellingEntry>> = E[number][1][number]

const describeList = (values: ReadonlyArray<string>): string => values.map((v) => `"${v}"`).join(", ")

const makeWriteCheck =
  (name: string, readable: ReadonlyArray<string>, writable: ReadonlyArray<string>) =>
  (value: unknown, path: FieldPath): FieldError | undefined => {
    if (typeof value !== "string") {
      return { pointer: toPointer(path), code: "invalid_type", detail: `Expected ${name} to be a string.` }
    }
    if (writable.includes(value)) return undefined
    // A readable-but-not-writable value (a retired one) deserves a different explanation than a typo.
    const reason = readable.includes(value) ? "is read-only and cannot be written" : "is not a supported value"
    return {
      pointer: toPointer(path),
      code: "unsupported_value",
      detail: `"${value}" ${reason} for ${name}; use one of ${describeList(writable)}.`,
      allowed_values: writable
    }
  }

/** Builds an enumeration from its spelling table; `readOnly` canonical values are readable but never writable. */
export const defineEnum = <const E extends ReadonlyArray<SpellingEntry>>(
  name: string,
  spellings: E,
  readOnly: ReadonlyArray<CanonicalOf<E>> = []
): EnumDefinition<CanonicalOf<E>, LegacyOf<E>> => {
  type C = CanonicalOf<E>
  type L = LegacyOf<E>
  const entries: ReadonlyArray<readonly [C, readonly [L, ...Array<L>]]> = spellings
  const values: ReadonlyArray<C> = entries.map(([canonical]) => canonical)
  const legacyValues: ReadonlyArray<L> = entries.flatMap(([, legacy]) => legacy)
  const writableEntries = entries.filter(([canonical]) => !readOnly.includes(canonical))
  const writableValues: ReadonlyArray<C> = writableEntries.map(([canonical]) => canonical)
  const writableLegacyValues: ReadonlyArray<L> = writableEntries.flatMap(([, legacy]) => legacy)

  const legacyByCanonical = new Map<string, readonly [L, ...Array<L>]>(entries)
  const canonicalByLegacy = new Map<string, C>(
    entries.flatMap(([canonical, legacy]) => legacy.map((spelling) => [spelling, canonical] as const))
  )
  const canonicalSet = new Set<string>(values)

  const isCanonical = (value: unknown): value is C => typeof value === "string" && canonicalSet.has(value)
  const isLegacy = (value: unknown): value is L => typeof value === "string" && canonicalByLegacy.has(value)

  const toLegacy = (value: string, preferred?: string): EnumMapping => {
    const legacy = legacyByCanonical.get(value)
    if (legacy === undefined) return { value, known: false }
    const chosen = preferred !== undefined && legacy.some((spelling) => spelling === preferred) ? preferred : legacy[0]
    return { value: chosen, known: true }
  }

  const toCanonical = (value: string): EnumMapping => {
    const canonical = canonicalByLegacy.get(value)
    return canonical === undefined ? { value, known: false } : { value: canonical, known: true }
  }

  return {
    name,
    values,
    legacyValues,
    writableValues,
    writableLegacyValues,
    isCanonical,
    isLegacy,
    toLegacy,
    toCanonical,
    checkWrite: makeWriteCheck(name, values, writableValues),
    checkLegacyWrite: makeWriteCheck(name, legacyValues, writableLegacyValues)
  }
}

/** Pricing model; `legacy_fixed_height` (FIXED_HEIGHT) is retired: readable, never writable. */
export const PricingModel = defineEnum(
  "pricing_model",
  [
    ["simple_letter", ["FIXED_WIDTH"]],
    ["advanced_letter", ["MATERIAL_LENGTH"]],
    ["frame_fit", ["FRAME_FIT"]],
    ["legacy_fixed_height", ["FIXED_HEIGHT"]]
  ],
  ["legacy_fixed_height"]
)
/** Canonical pricing model. */
export type PricingModel = (typeof PricingModel.values)[number]
/** Legacy (v2 `price_type`) pricing model spelling. */
export type PricingModelLegacy = (typeof PricingModel.legacyValues)[number]
/** Pricing models a write may target (everything but the retired one). */
export type WritablePricingModel = Exclude<PricingModel, "legacy_fixed_height">

/** Product family (v2 `product`). */
export const ProductFamily = defineEnum("product_family", [
  ["neon", ["NEON"]],
  ["channel_letter", ["CHANNEL"]],
  ["metal_cut_out", ["CUTOUT_METAL"]]
])
/** Canonical product family. */
export type ProductFamily = (typeof ProductFamily.values)[number]

/** Selection mode (v2 `selection_type`). */
export const SelectionMode = defineEnum("selection_mode", [
  ["single_style", ["SINGLE"]],
  ["per_word", ["MULTI"]]
])
/** Canonical selection mode. */
export type SelectionMode = (typeof SelectionMode.values)[number]

/** Sign category. */
export const SignCategory = defineEnum("sign_category", [
  ["neon", ["NEON"]],
  ["acrylic_channel_letter", ["ACRYLIC"]],
  ["metal_channel_letter", ["METAL"]],
  ["metal_cut_out", ["CUTOUT_METAL"]],
  ["stencil", ["STENCIL"]],
  ["lightbox", ["LIGHTBOX"]],
  ["wood_letter", ["WOOD"]],
  ["aluminium_plate", ["ALUMINIUM"]],
  ["braille_sign", ["BRAILLE"]],
  ["wood_frame", ["WOOD_FRAME"]]
])
/** Canonical sign category. */
export type SignCategory = (typeof SignCategory.values)[number]

/** Finish kind. */
export const FinishKind = defineEnum("finish_kind", [
  ["colour", ["COLOUR"]],
  ["texture", ["TEXTURE"]]
])
/** Canonical finish kind. */
export type FinishKind = (typeof FinishKind.values)[number]

/**
 * Sizing strategy (v2 `height_strategy`). Two legacy spellings collapse onto each canonical value;
 * `WIDTH` and `HEIGHT` are the defaults emitted when no preferred spelling is known.
 */
export const SizingStrategy = defineEnum("sizing_strategy", [
  ["fixed_width", ["WIDTH", "DYNAMIC"]],
  ["fixed_height", ["HEIGHT", "FIXED"]]
])
/** Canonical sizing strategy. */
export type SizingStrategy = (typeof SizingStrategy.values)[number]
/** Legacy (v2 `height_strategy`) spelling. */
export type SizingStrategyLegacy = (typeof SizingStrategy.legacyValues)[number]

/** Height measurement mode. */
export const HeightMeasurementMode = defineEnum("height_measurement_mode", [
  ["line_height", ["LINE_HEIGHT"]],
  ["letter_height", ["LETTER_HEIGHT"]]
])
/** Canonical height measurement mode. */
export type HeightMeasurementMode = (typeof HeightMeasurementMode.values)[number]

/** Letter pricing method of a price list; spelled the same on v2 and v3. */
export const LetterPricingMethod = defineEnum("letter_pricing_method", [
  ["material_length", ["material_length"]],
  ["fixed_letter", ["fixed_letter"]]
])
/** Letter pricing method. */
export type LetterPricingMethod = (typeof LetterPricingMethod.values)[number]

/** Shipping calculation of a price list; spelled the same on v2 and v3. */
export const ShippingCalculation = defineEnum("calculation", [
  ["physical", ["physical"]],
  ["volumetric", ["volumetric"]]
])
/** Shipping calculation. */
export type ShippingCalculation = (typeof ShippingCalculation.values)[number]
