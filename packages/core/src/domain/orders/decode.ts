import { Result, Schema, SchemaIssue } from "effect"
import type { FieldError } from "../field-error.js"
import { toPointer } from "../field-error.js"
import { collectFieldErrors, type IssuePath, type IssueVisitor } from "../schema-issues.js"

const filterCode = (issue: SchemaIssue.Filter): string => {
  const code = issue.filter.annotations?.code
  return typeof code === "string" ? code : "invalid_value"
}

const formatDefault = SchemaIssue.makeFormatterDefault()
const formatStandard = SchemaIssue.makeFormatterStandardSchemaV1()

const fault = (path: IssuePath, code: string, detail: string): FieldError => ({ pointer: toPointer(path), code, detail })

// Order-request wording: check codes come from the `code` annotation of each filter.
const visit: IssueVisitor = (issue, path, emit) => {
  switch (issue._tag) {
    case "AnyOf":
      if (issue.issues.length > 0) return false
      emit(fault(path, "invalid_type", formatDefault(issue)))
      return true
    case "Filter":
      emit(fault(path, filterCode(issue), formatStandard(issue).issues[0]?.message ?? "Invalid value"))
      return true
    case "MissingKey":
      emit(fault(path, "required", "This field is required"))
      return true
    case "UnexpectedKey":
      emit(fault(path, "unexpected_field", "This field is not allowed"))
      return true
    case "InvalidType":
      emit(fault(path, "invalid_type", SchemaIssue.defaultLeafHook(issue)))
      return true
    case "InvalidValue":
    case "Forbidden":
    case "OneOf":
      emit(fault(path, "invalid_value", SchemaIssue.defaultLeafHook(issue)))
      return true
    default:
      return false
  }
}

/** Flattens a schema issue into `errors[]` items whose `pointer` locates each fault in the body. */
export const issueToFieldErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> =>
  collectFieldErrors(issue, visit)

/** Decodes an untrusted JSON body with `schema`, reporting every fault as a FieldError. */
export const decodeRequest = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (input: unknown): Result.Result<S["Type"], ReadonlyArray<FieldError>> =>
    Result.mapError(decode(input), (error) => issueToFieldErrors(error.issue))
}
