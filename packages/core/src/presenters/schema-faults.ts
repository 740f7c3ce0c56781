import type { SchemaAST, SchemaIssue } from "effect"
import { type FieldError, toPointer } from "../domain/field-error.js"
import { collectFieldErrors, type IssuePath as Path, type IssueVisitor } from "../domain/schema-issues.js"

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
    case "Union":
      return ast.types.map(expectedName).join(" or ")
    default:
      return "a different type"
  }
}

const fault = (path: Path, code: string, detail: string, allowed?: ReadonlyArray<string>): FieldError => ({
  pointer: toPointer(path),
  code,
  detail,
  ...(allowed === undefined ? {} : { allowed_values: allowed })
})

const enumFault = (path: Path, allowed: ReadonlyArray<string>) =>
  fault(path, "unsupported_value", `Must be one of: ${allowed.join(", ")}.`, allowed)

// HTTP wording: enum faults carry `allowed_values`; checks say what they expected.
const visit: IssueVisitor = (issue, path, emit, descend) => {
  switch (issue._tag) {
    case "AnyOf":
    case "InvalidType": {
      const allowed = literalValues(issue.ast)
      if (allowed) emit(enumFault(path, allowed))
      else if (issue._tag === "AnyOf" && issue.issues.length > 0) for (const inner of issue.issues) descend(inner)
      else emit(fault(path, "invalid_type", `Must be ${expectedName(issue.ast)}.`))
      return true
    }
    case "MissingKey":
      emit(fault(path, "required", "This field is required."))
      return true
    case "UnexpectedKey":
      emit(fault(path, "unknown_field", "This member is not defined by the contract; check its spelling."))
      return true
    case "Filter": {
      const expected = issue.filter.annotations?.expected ?? issue.filter.annotations?.description
      emit(fault(path, "invalid_value", typeof expected === "string" ? `Must be ${expected}.` : "Invalid value."))
      return true
    }
    case "InvalidValue": {
      const message = issue.annotations?.message
      emit(fault(path, "invalid_value", typeof message === "string" ? message : "Invalid value."))
      return true
    }
    case "Forbidden":
    case "OneOf":
      emit(fault(path, "invalid_value", "Invalid value."))
      return true
    default:
      return false
  }
}

/** Every fault of a decoding issue, each with the JSON Pointer of the value at fault. */
export const issueToFieldErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> =>
  collectFieldErrors(issue, visit)

/** The same faults addressed by query parameter name instead of pointer. */
export const issueToParameterErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> =>
  issueToFieldErrors(issue).map(({ pointer, ...rest }) => ({
    ...rest,
    parameter: (pointer ?? "").split("/")[1] ?? ""
  }))
