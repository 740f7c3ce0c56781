import type { SchemaAST, SchemaIssue } from "effect"
import { type FieldError, readFieldErrorAnnotation, toPointer } from "./field-error.js"

/** A path into a JSON document, as JSON Pointer segments. */
export type IssuePath = ReadonlyArray<string | number>

/**
 * The one wording of the structural faults, whatever the surface (v3, v2, unversioned, the
 * agent's tools, the migration CLI): the same fault reads the same everywhere. Checks word their
 * own faults through their `message` (or `expected`) annotation and `code`.
 */
export const faultWording = {
  required: "This field is required.",
  unknownField: "This member is not defined by the contract; check its spelling.",
  invalidValue: "Invalid value."
} as const

const segment = (key: PropertyKey): string | number => (typeof key === "symbol" ? key.toString() : key)

const literalValues = (ast: SchemaAST.AST): ReadonlyArray<string> | undefined => {
  if (ast._tag === "Literal") return [String(ast.literal)]
  if (ast._tag !== "Union") return undefined
  const values: Array<string> = []
  for (const member of ast.types) {
    if (member._tag !== "Literal") return undefined
    values.push(String(member.literal))
  }
  return values
}

const expectedName = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
    case "TemplateLiteral":
      return "a string"
    case "Number":
      return "a number"
    case "Boolean":
      return "a boolean"
    case "Arrays":
      return "an array"
    case "Objects":
    case "Declaration":
      return "an object"
    case "Null":
      return "null"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Union":
      return ast.types.map(expectedName).join(" or ")
    default:
      return "a different type"
  }
}

const stringAnnotation = (annotations: unknown, key: string): string | undefined => {
  if (typeof annotations !== "object" || annotations === null) return undefined
  const value: unknown = Reflect.get(annotations, key)
  return typeof value === "string" ? value : undefined
}

const fault = (path: IssuePath, code: string, detail: string, allowed?: ReadonlyArray<string>): FieldError =>
  allowed === undefined
    ? { pointer: toPointer(path), code, detail }
    : { pointer: toPointer(path), code, detail, allowed_values: allowed }

// A check's own words: its FieldError annotation (pricing checks) or `code` (order fields) for
// the code, its `message`, else what it `expected`, for the detail.
const fromAnnotations = (path: IssuePath, annotations: unknown): FieldError => {
  const annotation = readFieldErrorAnnotation(annotations)
  const expected = stringAnnotation(annotations, "expected") ?? stringAnnotation(annotations, "description")
  return fault(
    path,
    annotation?.code ?? stringAnnotation(annotations, "code") ?? "invalid_value",
    stringAnnotation(annotations, "message") ?? (expected === undefined ? faultWording.invalidValue : `Must be ${expected}.`),
    annotation?.allowedValues
  )
}

const enumFault = (path: IssuePath, allowed: ReadonlyArray<string>): FieldError =>
  fault(path, "unsupported_value", `Must be one of: ${allowed.join(", ")}.`, allowed)

/**
 * Every fault of a decoding issue, each with the JSON Pointer of the value at fault; `basePath`
 * prefixes every pointer (e.g. `["pricing"]` for a document nested in a v2 body). The one
 * issue walker of the code base: HTTP decoding, the pricing validator, the order translators
 * and the migration CLI all report through it.
 */
export const issueToFieldErrors = (issue: SchemaIssue.Issue, basePath: IssuePath = []): ReadonlyArray<FieldError> => {
  const out: Array<FieldError> = []
  const seen = new Set<string>()
  const emit = (error: FieldError): void => {
    const key = `${error.pointer ?? ""}\u0000${error.code}\u0000${error.detail}`
    if (seen.has(key)) return
    seen.add(key)
    out.push(error)
  }
  const walk = (node: SchemaIssue.Issue, path: IssuePath): void => {
    switch (node._tag) {
      case "Pointer":
        walk(node.issue, [...path, ...node.path.map(segment)])
        return
      case "Composite":
        for (const child of node.issues) walk(child, path)
        return
      case "Encoding":
        walk(node.issue, path)
        return
      case "AnyOf":
      case "InvalidType": {
        const allowed = literalValues(node.ast)
        if (allowed !== undefined) emit(enumFault(path, allowed))
        else if (node._tag === "AnyOf" && node.issues.length > 0) for (const child of node.issues) walk(child, path)
        else emit(fault(path, "invalid_type", `Must be ${expectedName(node.ast)}.`))
        return
      }
      case "Filter":
        // A bare failure is described by the check; a detailed one (at a nested path) by itself.
        if (node.issue._tag === "InvalidValue" && readFieldErrorAnnotation(node.issue.annotations) === undefined) {
          emit(fromAnnotations(path, node.filter.annotations))
        } else {
          walk(node.issue, path)
        }
        return
      case "MissingKey":
        emit(fault(path, "required", faultWording.required))
        return
      case "UnexpectedKey":
        emit(fault(path, "unknown_field", faultWording.unknownField))
        return
      case "InvalidValue":
        emit(fromAnnotations(path, node.annotations))
        return
      case "Forbidden":
      case "OneOf":
        emit(fault(path, "invalid_value", faultWording.invalidValue))
        return
      default:
        return
    }
  }
  walk(issue, basePath)
  return out
}

/** The same faults addressed by query parameter name instead of pointer. */
export const issueToParameterErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> =>
  issueToFieldErrors(issue).map(({ pointer, ...rest }) => ({
    ...rest,
    parameter: (pointer ?? "").split("/")[1] ?? ""
  }))
