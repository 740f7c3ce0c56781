import { Schema, type SchemaAST } from "effect"
import { type FieldErrorAnnotations, fieldErrorAnnotations } from "../input/field-error.js"

/**
 * Schema checks that carry the FieldError `code` they fail with, so turning a schema issue into a
 * problem-document item never has to guess from message text.
 */

type Predicate = (input: unknown) => boolean

// Each check's plain predicate, so the compiled decoder (compile.ts) can test a value without
// Effect's issue normalisation; the check itself still produces the issue when the value fails.
const predicates = new WeakMap<SchemaAST.Filter<never>, Predicate>()

/** The plain predicate behind a check made here, if `filter` is one of them. */
export const predicateOf = (filter: SchemaAST.Filter<never>): Predicate | undefined => predicates.get(filter)

// Predicates take `unknown` and test the type themselves, so one function serves both the
// schema check (which only ever sees the declared type) and the registry above.
const makeCheck = <T>(
  predicate: Predicate,
  annotations: FieldErrorAnnotations & Schema.Annotations.Filter,
  abort = false
): SchemaAST.Filter<T> => {
  const filter = Schema.makeFilter<T>(predicate, annotations, abort)
  predicates.set(filter, predicate)
  return filter
}

// Type faults abort the remaining checks: "1.5 is not an integer" says everything, "and is above 10" is noise.
/** Rejects NaN and ±Infinity, which JSON cannot carry but an in-process caller can. */
export const isFiniteNumber = makeCheck<number>(
  (n) => Number.isFinite(n),
  fieldErrorAnnotations("Expected a finite number.", { code: "invalid_type" }),
  true
)

/** Rejects non-integers; the field's type is integer, so this is a type fault. */
export const isWholeNumber = makeCheck<number>(
  (n) => Number.isInteger(n),
  fieldErrorAnnotations("Expected an integer.", { code: "invalid_type" }),
  true
)

/** Lower bound (inclusive), code `too_small`. */
export const isAtLeast = (minimum: number) =>
  makeCheck<number>(
    (n) => typeof n === "number" && n >= minimum,
    fieldErrorAnnotations(`Must be greater than or equal to ${minimum}.`, { code: "too_small" })
  )

/** Upper bound (inclusive), code `too_large`. */
export const isAtMost = (maximum: number) =>
  makeCheck<number>(
    (n) => typeof n === "number" && n <= maximum,
    fieldErrorAnnotations(`Must be less than or equal to ${maximum}.`, { code: "too_large" })
  )

/** Minimum string length, code `too_short`. */
export const isMinLengthString = (minimum: number) =>
  makeCheck<string>(
    (s) => typeof s === "string" && s.length >= minimum,
    fieldErrorAnnotations(`Must be at least ${minimum} character${minimum === 1 ? "" : "s"} long.`, {
      code: "too_short"
    })
  )

/** Enumeration membership, code `unsupported_value` with the allowed values. */
export const isOneOf = (allowed: ReadonlyArray<string>) => {
  const members = new Set<unknown>(allowed)
  return makeCheck<string>(
    (s) => members.has(s),
    {
      ...fieldErrorAnnotations(`Must be one of ${allowed.map((v) => `"${v}"`).join(", ")}.`, {
        code: "unsupported_value",
        allowedValues: allowed
      }),
      // The JSON Schema shows the closed set, so generated clients type it as a union.
      toJsonSchema: () => ({ enum: [...allowed] })
    }
  )
}
