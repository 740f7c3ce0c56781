import { Schema } from "effect"

/**
 * A field-level fault, the shape of one `errors[]` item of a problem document.
 * Body faults carry a JSON Pointer (`pointer`), query faults a `parameter`.
 */
export interface FieldError {
  readonly pointer?: string
  readonly parameter?: string
  /** Stable machine code, e.g. `required`, `unsupported_value`, `too_small`. */
  readonly code: string
  readonly detail: string
  /** Present on enum faults: every value the field accepts. */
  readonly allowed_values?: ReadonlyArray<string>
}

/** One `errors[]` item of a problem document or of a tool's error result. */
export const FieldErrorSchema = Schema.Struct({
  pointer: Schema.optionalKey(Schema.String),
  parameter: Schema.optionalKey(Schema.String),
  code: Schema.String,
  detail: Schema.String,
  allowed_values: Schema.optionalKey(Schema.Array(Schema.String))
}).annotate({ identifier: "FieldError" })

/** Escapes one reference token of a JSON Pointer (RFC 6901 §4). */
export const escapePointerToken = (token: string | number): string =>
  String(token).replace(/~/g, "~0").replace(/\//g, "~1")

/** Builds a JSON Pointer from path segments: `["sizes", 0, "name"]` → `/sizes/0/name`. */
export const toPointer = (path: ReadonlyArray<string | number>): string =>
  path.map((segment) => `/${escapePointerToken(segment)}`).join("")
/** Annotation key under which a check stores its FieldError code (and allowed values for enums). */
export const fieldErrorAnnotationKey = "signcraft/fieldError"

/** What a failed check reports besides its message. */
export interface FieldErrorAnnotation {
  readonly code: string
  readonly allowedValues?: ReadonlyArray<string>
}

const isStringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

/** Reads the FieldError annotation back from a check's (or issue's) annotations, if it has one. */
export const readFieldErrorAnnotation = (annotations: unknown): FieldErrorAnnotation | undefined => {
  if (typeof annotations !== "object" || annotations === null) return undefined
  const value: unknown = Reflect.get(annotations, fieldErrorAnnotationKey)
  if (typeof value !== "object" || value === null) return undefined
  const code: unknown = Reflect.get(value, "code")
  if (typeof code !== "string") return undefined
  const allowedValues: unknown = Reflect.get(value, "allowedValues")
  return isStringArray(allowedValues) ? { code, allowedValues } : { code }
}

// A type alias, not an interface: Effect's annotation types carry an index signature.
/** Annotations for a check or issue: a human message plus the FieldError code. */
export type FieldErrorAnnotations = {
  readonly message: string
  readonly [fieldErrorAnnotationKey]: FieldErrorAnnotation
}

/** Builds annotations for a check or issue: a human message plus the FieldError code. */
export const fieldErrorAnnotations = (message: string, annotation: FieldErrorAnnotation): FieldErrorAnnotations => ({
  message,
  [fieldErrorAnnotationKey]: annotation
})

