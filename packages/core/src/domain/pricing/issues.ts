import { SchemaIssue } from "effect"
import { type FieldError, toPointer } from "../field-error.js"
import { collectFieldErrors, type IssueVisitor } from "../schema-issues.js"
import { readFieldErrorAnnotation } from "./checks.js"
import type { Path } from "./raw.js"

/**
 * Flattens an Effect schema issue tree into problem-document items, one per fault, each with the
 * JSON Pointer of the offending member. Codes come from the check annotations (see `checks.ts`);
 * structural faults map to `required`, `invalid_type` and `unknown_field`.
 */

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

// Built-in messages never echo input here (no `reportInput`), so they are safe to return verbatim.
const messageOf = (issue: SchemaIssue.Issue): string => {
  const first = formatter(issue).issues[0]
  return first === undefined ? "Invalid value." : `${first.message}.`
}

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

// Pricing wording: codes and allowed values come from the check annotations (`checks.ts`).
const visit: IssueVisitor = (issue, path, emit, descend) => {
  switch (issue._tag) {
    case "AnyOf":
      // No member of the union accepted the input's type at all: a type fault naming the union.
      if (issue.issues.length > 0) return false
      emit(fault(path, "invalid_type", messageOf(issue)))
      return true
    case "Filter":
      // A bare failure is described by the check; a detailed one (e.g. at a nested path) by itself.
      if (issue.issue._tag === "InvalidValue" && readFieldErrorAnnotation(issue.issue.annotations) === undefined) {
        emit(fromAnnotations(path, issue.filter.annotations, "invalid_value"))
      } else {
        descend(issue.issue)
      }
      return true
    case "MissingKey":
      emit(fault(path, "required", "This member is required."))
      return true
    case "InvalidType":
      emit(fault(path, "invalid_type", messageOf(issue)))
      return true
    case "InvalidValue":
      emit(fromAnnotations(path, issue.annotations, "invalid_value"))
      return true
    case "UnexpectedKey":
      // Operating contract 5.1: a misspelt member is refused, never silently dropped.
      emit(fault(path, "unknown_field", "The pricing document does not define this member; check its spelling."))
      return true
    case "Forbidden":
    case "OneOf":
      emit(fault(path, "invalid_value", messageOf(issue)))
      return true
    default:
      return false
  }
}

/** Converts a schema issue into FieldErrors; `basePath` prefixes every pointer (e.g. `["pricing"]` for v2 bodies). */
export const issueToFieldErrors = (issue: SchemaIssue.Issue, basePath: Path = []): ReadonlyArray<FieldError> => {
  const out = collectFieldErrors(issue, visit, basePath)
  const seen = new Set<string>()
  return out.filter((error) => {
    const key = `${error.pointer ?? ""}\u0000${error.code}\u0000${error.detail}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
