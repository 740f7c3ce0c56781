import type { SchemaAST, SchemaIssue } from "effect"
import { type FieldError, toPointer } from "../domain/field-error.js"

type Path = ReadonlyArray<string | number>

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

const collect = (issue: SchemaIssue.Issue, path: Path, out: Array<FieldError>): void => {
  switch (issue._tag) {
    case "Pointer":
      collect(issue.issue, [...path, ...issue.path.map((k) => (typeof k === "number" ? k : String(k)))], out)
      return
    case "Composite":
      for (const inner of issue.issues) collect(inner, path, out)
      return
    case "Encoding":
      collect(issue.issue, path, out)
      return
    case "AnyOf": {
      const allowed = literalValues(issue.ast)
      if (allowed) out.push(enumFault(path, allowed))
      else if (issue.issues.length > 0) for (const inner of issue.issues) collect(inner, path, out)
      else out.push(fault(path, "invalid_type", `Must be ${expectedName(issue.ast)}.`))
      return
    }
    case "InvalidType": {
      const allowed = literalValues(issue.ast)
      out.push(allowed ? enumFault(path, allowed) : fault(path, "invalid_type", `Must be ${expectedName(issue.ast)}.`))
      return
    }
    case "MissingKey":
      out.push(fault(path, "required", "This field is required."))
      return
    case "UnexpectedKey":
      out.push(fault(path, "unexpected_field", "This field is not allowed here."))
      return
    case "Filter": {
      const expected = issue.filter.annotations?.expected ?? issue.filter.annotations?.description
      out.push(fault(path, "invalid_value", typeof expected === "string" ? `Must be ${expected}.` : "Invalid value."))
      return
    }
    case "InvalidValue": {
      const message = issue.annotations?.message
      out.push(fault(path, "invalid_value", typeof message === "string" ? message : "Invalid value."))
      return
    }
    case "Forbidden":
    case "OneOf":
      out.push(fault(path, "invalid_value", "Invalid value."))
      return
  }
}

/** Every fault of a decoding issue, each with the JSON Pointer of the value at fault. */
export const issueToFieldErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> => {
  const out: Array<FieldError> = []
  collect(issue, [], out)
  return out
}

/** The same faults addressed by query parameter name instead of pointer. */
export const issueToParameterErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> =>
  issueToFieldErrors(issue).map(({ pointer, ...rest }) => ({
    ...rest,
    parameter: (pointer ?? "").split("/")[1] ?? ""
  }))
