import { SchemaIssue } from "effect"
import { type FieldError, toPointer } from "../field-error.js"
import { readFieldErrorAnnotation } from "./checks.js"
import type { Path } from "./raw.js"

/**
 * Flattens an Effect schema issue tree into problem-document items, one per fault, each with the
 * JSON Pointer of the offending member. Codes come from the check annotations (see `checks.ts`);
 * structural faults map to `required` and `invalid_type`.
 */

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

// Built-in messages never echo input here (no `reportInput`), so they are safe to return verbatim.
const messageOf = (issue: SchemaIssue.Issue): string => {
  const first = formatter(issue).issues[0]
  return first === undefined ? "Invalid value." : `${first.message}.`
}

const segment = (key: PropertyKey): string | number => (typeof key === "symbol" ? key.toString() : key)

const annotationMessage = (annotations: unknown, fallback: string): string => {
  if (typeof annotations !== "object" || annotations === null) return fallback
  const message: unknown = Reflect.get(annotations, "message")
  return typeof message === "string" ? message : fallback
}

const fault = (path: Path, code: string, detail: string, allowedValues?: ReadonlyArray<string>): FieldError =>
  allowedValues === undefined
    ? { pointer: toPointer(path), code, detail }
    : { pointer: toPointer(path), code, detail, allowed_values: allowedValues }

const fromAnnotations = (path: Path, annotations: unknown, fallbackCode: string): FieldError => {
  const annotation = readFieldErrorAnnotation(annotations)
  return fault(
    path,
    annotation?.code ?? fallbackCode,
    annotationMessage(annotations, "Invalid value."),
    annotation?.allowedValues
  )
}

const collect = (issue: SchemaIssue.Issue, path: Path, out: Array<FieldError>): void => {
  switch (issue._tag) {
    case "Pointer":
      collect(issue.issue, [...path, ...issue.path.map(segment)], out)
      return
    case "Composite":
      for (const child of issue.issues) collect(child, path, out)
      return
    case "AnyOf":
      // No member of the union accepted the input's type at all: a type fault naming the union.
      if (issue.issues.length === 0) out.push(fault(path, "invalid_type", messageOf(issue)))
      else for (const child of issue.issues) collect(child, path, out)
      return
    case "Filter":
      // A bare failure is described by the check; a detailed one (e.g. at a nested path) by itself.
      if (issue.issue._tag === "InvalidValue" && readFieldErrorAnnotation(issue.issue.annotations) === undefined) {
        out.push(fromAnnotations(path, issue.filter.annotations, "invalid_value"))
      } else {
        collect(issue.issue, path, out)
      }
      return
    case "Encoding":
      collect(issue.issue, path, out)
      return
    case "MissingKey":
      out.push(fault(path, "required", "This member is required."))
      return
    case "InvalidType":
      out.push(fault(path, "invalid_type", messageOf(issue)))
      return
    case "InvalidValue":
      out.push(fromAnnotations(path, issue.annotations, "invalid_value"))
      return
    case "UnexpectedKey":
      out.push(fault(path, "unexpected_member", "This member is not allowed."))
      return
    case "Forbidden":
    case "OneOf":
      out.push(fault(path, "invalid_value", messageOf(issue)))
      return
  }
}

/** Converts a schema issue into FieldErrors; `basePath` prefixes every pointer (e.g. `["pricing"]` for v2 bodies). */
export const issueToFieldErrors = (issue: SchemaIssue.Issue, basePath: Path = []): ReadonlyArray<FieldError> => {
  const out: Array<FieldError> = []
  collect(issue, basePath, out)
  const seen = new Set<string>()
  return out.filter((error) => {
    const key = `${error.pointer ?? ""}\u0000${error.code}\u0000${error.detail}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
