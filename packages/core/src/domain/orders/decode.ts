import { Result, Schema, SchemaIssue } from "effect"
import type { FieldError } from "../field-error.js"
import { toPointer } from "../field-error.js"

type Path = ReadonlyArray<string | number>

const pathSegment = (key: PropertyKey): string | number => (typeof key === "symbol" ? String(key) : key)

const filterCode = (issue: SchemaIssue.Filter): string => {
  const code = issue.filter.annotations?.code
  return typeof code === "string" ? code : "invalid_value"
}

const formatDefault = SchemaIssue.makeFormatterDefault()
const formatStandard = SchemaIssue.makeFormatterStandardSchemaV1()

const fault = (path: Path, code: string, detail: string): FieldError => ({ pointer: toPointer(path), code, detail })

// Walks the issue tree once, carrying the JSON path, so every leaf becomes one
// `errors[]` item pointing at the offending member of the body.
const collect = (issue: SchemaIssue.Issue, path: Path, out: Array<FieldError>): void => {
  switch (issue._tag) {
    case "Pointer":
      collect(issue.issue, [...path, ...issue.path.map(pathSegment)], out)
      return
    case "Composite":
      for (const inner of issue.issues) collect(inner, path, out)
      return
    case "AnyOf":
      if (issue.issues.length === 0) {
        out.push(fault(path, "invalid_type", formatDefault(issue)))
        return
      }
      for (const inner of issue.issues) collect(inner, path, out)
      return
    case "Encoding":
      collect(issue.issue, path, out)
      return
    case "Filter": {
      const message = formatStandard(issue).issues[0]?.message
      out.push(fault(path, filterCode(issue), message ?? "Invalid value"))
      return
    }
    case "MissingKey":
      out.push(fault(path, "required", "This field is required"))
      return
    case "UnexpectedKey":
      out.push(fault(path, "unexpected_field", "This field is not allowed"))
      return
    case "InvalidType":
      out.push(fault(path, "invalid_type", SchemaIssue.defaultLeafHook(issue)))
      return
    case "InvalidValue":
    case "Forbidden":
    case "OneOf":
      out.push(fault(path, "invalid_value", SchemaIssue.defaultLeafHook(issue)))
      return
  }
}

/** Flattens a schema issue into `errors[]` items whose `pointer` locates each fault in the body. */
export const issueToFieldErrors = (issue: SchemaIssue.Issue): ReadonlyArray<FieldError> => {
  const out: Array<FieldError> = []
  collect(issue, [], out)
  return out
}

/** Decodes an untrusted JSON body with `schema`, reporting every fault as a FieldError. */
export const decodeRequest = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (input: unknown): Result.Result<S["Type"], ReadonlyArray<FieldError>> =>
    Result.mapError(decode(input), (error) => issueToFieldErrors(error.issue))
}
