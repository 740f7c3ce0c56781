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
