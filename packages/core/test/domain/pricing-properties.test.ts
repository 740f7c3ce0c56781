import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { FieldError } from "../../src/domain/input/field-error.js"
import { LetterPricingMethod, PricingModel, ShippingCalculation, SizingStrategy } from "../../src/domain/enums.js"
import {
  type CompileOptions,
  type Decoded,
  LINE_KEYS,
  type PricingDocumentV2,
  PricingDocumentV3 as PricingDocumentV3Schema,
  PricingPutBodyV2,
  type PricingDocumentV3,
  type SizeV2,
  compileDecoder,
  identitiesOf,
  issueToFieldErrors,
  pricingHeaderV3,
  pricingV2ToV3,
  pricingV3ToV2,
  validatePricingV2,
  validatePricingV3
} from "../../src/domain/pricing/index.js"

type WritableModel = "simple_letter" | "advanced_letter" | "frame_fit"

const plain = { noNullPrototype: true } as const
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null })
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
const nonNegative = fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e9 })
const integer = fc.integer({ min: -1_000_000, max: 1_000_000 })
const nonNegativeInteger = fc.nat({ max: 1_000_000 })
const perLine = fc.dictionary(fc.constantFrom(...LINE_KEYS), nonNegative, { maxKeys: 4, noNullPrototype: true })

const positiveId = fc.integer({ min: 1, max: 1_000_000 })

const size = fc.record(
  {
    size_id: nullable(positiveId),
    client_key: nullable(fc.string({ minLength: 1 })),
    name: fc.string(),
    description: nullable(fc.string()),
    sort_order: nullable(integer),
    char_limit: nullable(nonNegativeInteger),
    line_limit: nullable(fc.integer({ min: 1, max: 10 })),
    min_char: nullable(nonNegativeInteger),
    width_cm: nullable(nonNegative),
    height_cm: nullable(nonNegative),
    line_height_cm: nullable(nonNegative),
    length_cm: nullable(nonNegative),
    sizing_strategy: fc.constantFrom(...SizingStrategy.values),
    height_measurement_mode: fc.constantFrom("line_height", "letter_height"),
    width_multiplier: nullable(finite)
  },
  { requiredKeys: ["name"], ...plain }
)

// Model-specific members follow the consistency rules: what a model refuses is generated as null.
const basePriceFor = (model: WritableModel) =>
  model === "simple_letter" ? nullable(fc.oneof(nonNegative, perLine)) : nullable(nonNegative)
const letterFor = <T>(model: WritableModel, arbitrary: fc.Arbitrary<T>) =>
  model === "frame_fit" ? fc.constant(null) : nullable(arbitrary)
const areaFor = (model: WritableModel) => (model === "frame_fit" ? nullable(nonNegative) : fc.constant(null))

// Rows name sizes of their own document (`sizeId` draws from those ids), as the identity rules require.
const basePricingRow = (model: WritableModel, sizeId: fc.Arbitrary<number | null>) =>
  fc.record(
    {
      size_id: sizeId,
      size_key: nullable(fc.string()),
      base_price: basePriceFor(model),
      width_limit_cm: nullable(nonNegative),
      height_limit_cm: nullable(nonNegative),
      length_limit_cm: nullable(nonNegative)
    },
    { requiredKeys: [], ...plain }
  )

const priceListRow = (model: WritableModel, sizeId: fc.Arbitrary<number | null>) =>
  fc.record(
    {
      size_id: sizeId,
      size_key: nullable(fc.string()),
      base_price: basePriceFor(model),
      letter_price: letterFor(model, perLine),
      price_per_cm: nullable(nonNegative),
      price_per_letter: letterFor(model, nonNegative),
      max_price_multiplier: nullable(nonNegative),
      width_limit_cm: nullable(nonNegative),
      height_limit_cm: nullable(nonNegative),
      length_limit_cm: nullable(nonNegative),
      price_per_sq_cm: areaFor(model),
      fixed_length_cm: nullable(nonNegative),
      width_modifier: nullable(finite),
      height_modifier: nullable(finite),
      length_modifier: nullable(finite)
    },
    { requiredKeys: [], ...plain }
  )

const priceList = (model: WritableModel, sizeId: fc.Arbitrary<number | null>) =>
  fc.record(
    {
      price_list_id: nullable(positiveId),
      name: fc.string(),
      letter_pricing_method: letterFor(model, fc.constantFrom(...LetterPricingMethod.values)),
      shipping: nullable(
        fc.record(
          {
            calculation: fc.constantFrom(...ShippingCalculation.values),
            volumetric_divisor: finite,
            add_weight_to_product: fc.boolean()
          },
          { requiredKeys: [], ...plain }
        )
      ),
      rows: fc.array(priceListRow(model, sizeId), { maxLength: 4 })
    },
    { requiredKeys: ["name", "rows"], ...plain }
  )

const sheetBand = fc.record(
  { width_limit_cm: finite, height_limit_cm: finite, base_price: nonNegativeInteger, price_per_sq_cm: nonNegative },
  plain
)

// Ids are unique per kind within a document; elements without one may repeat.
type WithId<K extends string> = { readonly [P in K]?: number | null }
const sameId = <K extends string>(key: K) => (a: WithId<K>, b: WithId<K>) => typeof a[key] === "number" && a[key] === b[key]

const content = (model: WritableModel) =>
  fc.tuple(fc.uniqueArray(size, { maxLength: 5, comparator: sameId("size_id") }), fc.boolean()).chain(([sizes, sendSizes]) => {
    const ids = sendSizes ? sizes.flatMap((entry) => (typeof entry.size_id === "number" ? [entry.size_id] : [])) : []
    const sizeId = ids.length === 0 ? fc.constant(null) : nullable(fc.constantFrom(...ids))
    const others = fc.record(
      {
        base_pricing: fc.record(
          {
            mode: fc.constantFrom("included_in_price_lists", "other"),
            rows: fc.array(basePricingRow(model, sizeId), { maxLength: 4 })
          },
          plain
        ),
        price_lists: fc.uniqueArray(priceList(model, sizeId), { maxLength: 3, comparator: sameId("price_list_id") }),
        sheet_pricing: nullable(fc.record({ rows: fc.array(sheetBand, { maxLength: 3 }) }, plain))
      },
      { requiredKeys: [], ...plain }
    )
    return sendSizes ? others.map((rest) => ({ sizes, ...rest })) : others
  })

const storedHeader = fc.record({
  pricingModel: fc.constantFrom<WritableModel>("simple_letter", "advanced_letter", "frame_fit"),
  currency: fc.constantFrom("GBP", "EUR", "USD", "JPY"),
  customiserId: fc.nat()
})

/**
 * A valid v3 document in read form (header equal to the stored context) with its context: the
 * stored document holds the ids this one was read with.
 */
const validV3 = storedHeader.chain((header) =>
  content(header.pricingModel).map((body) => ({
    stored: { ...header, identities: identitiesOf(body) },
    document: { ...pricingHeaderV3(header), ...body } satisfies PricingDocumentV3
  }))
)

/** Every path to a node of a JSON-like value. */
const pathsOf = (value: unknown, prefix: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  const here = [prefix]
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...prefix, index]))]
  if (typeof value === "object" && value !== null)
    return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))]
  return here
}

const replaceAt = (value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown => {
  const [head, ...rest] = path
  if (head === undefined) return replacement
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item))
  if (typeof value === "object" && value !== null)
    return { ...value, [head]: replaceAt((value as Record<string, unknown>)[String(head)], rest, replacement) }
  return value
}

const oddValues = fc.anything({
  maxDepth: 5,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withObjectString: true
})

/** A valid document with one node, anywhere, replaced by arbitrary junk: reaches deep validator paths. */
const nearlyValidV3 = fc
  .tuple(validV3, fc.nat(), oddValues)
  .map(([{ stored, document }, pick, junk]) => {
    const paths = pathsOf(document)
    const path = paths[pick % paths.length] ?? []
    return { stored, input: replaceAt(document, path, junk) }
  })

const anyIds = fc.array(integer, { maxLength: 5 }).map((ids): ReadonlySet<number> => new Set(ids))

const anyStored = fc.record({
  pricingModel: fc.oneof(fc.constantFrom(...PricingModel.values, ...PricingModel.legacyValues), fc.string()),
  currency: fc.string(),
  customiserId: fc.integer(),
  identities: fc.record({ sizeIds: anyIds, priceListIds: anyIds })
})

const expectWellFormed = (result: ReturnType<typeof validatePricingV3> | ReturnType<typeof validatePricingV2>) => {
  if (result.ok) return
  expect(["validation_failed", "invalid_pricing_model"]).toContain(result.code)
  expect(result.errors.length).toBeGreaterThan(0)
  for (const error of result.errors) {
    expect(error.pointer === "" || error.pointer?.startsWith("/")).toBe(true)
    expect(typeof error.code).toBe("string")
    expect(typeof error.detail).toBe("string")
  }
}

describe("validators never throw", () => {
  it("v3 on arbitrary values", () => {
    fc.assert(fc.property(oddValues, anyStored, (input, stored) => expectWellFormed(validatePricingV3(input, stored))), {
      numRuns: 500
    })
  })

  it("v3 on arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.json(), anyStored, (text, stored) => expectWellFormed(validatePricingV3(JSON.parse(text), stored))),
      { numRuns: 500 }
    )
  })

  it("v3 on valid documents with one node replaced by junk", () => {
    fc.assert(
      fc.property(nearlyValidV3, ({ stored, input }) => expectWellFormed(validatePricingV3(input, stored))),
      { numRuns: 300 }
    )
  })

  it("v2 on arbitrary values, bare and wrapped in {pricing}", () => {
    fc.assert(
      fc.property(oddValues, anyStored, (input, stored) => {
        expectWellFormed(validatePricingV2(input, stored))
        expectWellFormed(validatePricingV2({ pricing: input }, stored))
      }),
      { numRuns: 500 }
    )
  })

  it("v2 on valid documents with one node replaced by junk", () => {
    fc.assert(
      fc.property(nearlyValidV3, ({ stored, input }) => {
        // The v3 junk is translated only structurally: any object goes, validity is not assumed.
        expectWellFormed(validatePricingV2({ pricing: input }, stored))
      }),
      { numRuns: 300 }
    )
  })
})

describe("valid v3 documents", () => {
  it("pass validation and come back unchanged", () => {
    fc.assert(
      fc.property(validV3, ({ stored, document }) => {
        expect(validatePricingV3(document, stored)).toEqual({ ok: true, document })
      }),
      { numRuns: 200 }
    )
  })

  it("survive v3 → v2 → v3 unchanged", () => {
    fc.assert(
      fc.property(validV3, ({ stored, document }) => {
        const roundTrip = pricingV2ToV3(pricingV3ToV2(document), stored)
        expect(roundTrip).toEqual({ document, legacySpellings: {} })
      }),
      { numRuns: 200 }
    )
  })

  it("translate to v2 documents that the v2 validator accepts", () => {
    fc.assert(
      fc.property(validV3, ({ stored, document }) => {
        const { value_units: _units, ...v2 } = pricingV3ToV2(document)
        const body = { pricing: { sizes: [], base_pricing: { mode: "m", rows: [] }, price_lists: [], ...v2 } }
        expect(validatePricingV2(body, stored).ok).toBe(true)
      }),
      { numRuns: 200 }
    )
  })
})

describe("valid v2 documents", () => {
  const alternative: Record<string, string> = { WIDTH: "DYNAMIC", HEIGHT: "FIXED" }

  /** A v2 read-form document where each size may use the non-default spelling. */
  const validV2 = fc.tuple(validV3, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 })).map(([{ stored, document }, flips]) => {
    const v2 = pricingV3ToV2(document)
    const sizes = v2.sizes?.map((entry: SizeV2, index): SizeV2 => {
      const spelling = entry.height_strategy
      const flipped = spelling === undefined ? undefined : alternative[spelling]
      return flips[index] === true && flipped !== undefined ? { ...entry, height_strategy: flipped } : entry
    })
    const withSpellings: PricingDocumentV2 = sizes === undefined ? v2 : { ...v2, sizes }
    return { stored, document: withSpellings }
  })

  it("survive v2 → v3 → v2 unchanged, legacy spellings included", () => {
    fc.assert(
      fc.property(validV2, ({ stored, document }) => {
        const { document: v3, legacySpellings } = pricingV2ToV3(document, stored)
        expect(pricingV3ToV2(v3, { legacySpellings })).toEqual(document)
        expect(validatePricingV3(v3, stored).ok).toBe(true)
      }),
      { numRuns: 200 }
    )
  })
})

const byPosition = (a: FieldError, b: FieldError): number => {
  const left = `${a.pointer}\u0000${a.code}\u0000${a.detail}`
  const right = `${b.pointer}\u0000${b.code}\u0000${b.detail}`
  return left < right ? -1 : left > right ? 1 : 0
}

const normalise = <A>(decoded: Decoded<A>): Decoded<A> =>
  decoded.ok ? decoded : { ok: false, errors: [...decoded.errors].sort(byPosition) }

/** Effect's own decoder, faults rendered the same way the validators render them. */
const viaEffect = <S extends Schema.ConstraintDecoder<unknown>>(schema: S, options: CompileOptions) => {
  const decode = Schema.decodeUnknownResult(schema, { errors: "all", ...options })
  return (input: unknown): Decoded<S["Type"]> => {
    const result = decode(input)
    return Result.isSuccess(result)
      ? { ok: true, value: result.success }
      : { ok: false, errors: issueToFieldErrors(result.failure.issue) }
  }
}

const ABSENT = Symbol("absent")

const mutateAt = (value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown => {
  const [head, ...rest] = path
  if (head === undefined) return replacement === ABSENT ? null : replacement
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? mutateAt(item, rest, replacement) : item))
  if (typeof value !== "object" || value === null) return value
  const copy: Record<string, unknown> = { ...value }
  if (rest.length === 0 && replacement === ABSENT) delete copy[String(head)]
  else copy[String(head)] = mutateAt(copy[String(head)], rest, replacement)
  return copy
}

/** A copy of `value` whose object at `path` (if it is one) gains the member `key`. */
const addMemberAt = (value: unknown, path: ReadonlyArray<string | number>, key: string, member: unknown): unknown => {
  const [head, ...rest] = path
  if (head === undefined) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value
    const copy: Record<string, unknown> = { ...value }
    Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true })
    return copy
  }
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? addMemberAt(item, rest, key, member) : item))
  if (typeof value !== "object" || value === null) return value
  return { ...value, [head]: addMemberAt((value as Record<string, unknown>)[String(head)], rest, key, member) }
}

/**
 * JSON derived from a valid document: a few nodes replaced by arbitrary JSON or removed, and a few
 * objects given a member, usually one their schema does not declare.
 */
const jsonNear = <A>(valid: fc.Arbitrary<A>) =>
  fc
    .tuple(
      valid,
      fc.array(fc.tuple(fc.nat(), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(ABSENT))), { maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), fc.oneof(fc.string(), fc.constantFrom("size", "price_list", "__proto__", "rows")), fc.jsonValue({ maxDepth: 1 })), {
        maxLength: 2
      })
    )
    .map(([document, edits, additions]) => {
      const edited = edits.reduce<unknown>((current, [pick, replacement]) => {
        const paths = pathsOf(current)
        return mutateAt(current, paths[pick % paths.length] ?? [], replacement)
      }, document)
      return additions.reduce<unknown>((current, [pick, key, member]) => {
        const paths = pathsOf(current)
        return addMemberAt(current, paths[pick % paths.length] ?? [], key, member)
      }, edited)
    })

describe("compiled decoder agrees with Effect's decoder on JSON", () => {
  const refuse: CompileOptions = { onExcessProperty: "error" }
  const ignore: CompileOptions = {}
  const cases = [
    ["v3 document, unknown members refused", PricingDocumentV3Schema, refuse, jsonNear(validV3.map(({ document }) => document))],
    ["v3 document, unknown members dropped", PricingDocumentV3Schema, ignore, jsonNear(validV3.map(({ document }) => document))],
    ["v2 PUT body", PricingPutBodyV2, ignore, jsonNear(validV3.map(({ document }) => ({ pricing: pricingV3ToV2(document) })))]
  ] as const

  it.each(cases)("%s: same verdict, same document, same faults", (_name, schema, options, nearValid) => {
    const compiled = compileDecoder(schema, options)
    const effect = viaEffect(schema, options)
    const inputs = fc.oneof(nearValid, fc.json().map((text): unknown => JSON.parse(text)))
    fc.assert(
      fc.property(inputs, (input) => {
        expect(normalise(compiled(input))).toEqual(normalise(effect(input)))
      }),
      { numRuns: 400 }
    )
  })
})
