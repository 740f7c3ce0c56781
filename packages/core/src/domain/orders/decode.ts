import { Result, Schema } from "effect"
import type { FieldError } from "../input/field-error.js"
import { issueToFieldErrors } from "../input/schema-issues.js"

/** Decodes an untrusted JSON body with `schema`, reporting every fault as a FieldError. */
export const decodeRequest = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (input: unknown): Result.Result<S["Type"], ReadonlyArray<FieldError>> =>
    Result.mapError(decode(input), (error) => issueToFieldErrors(error.issue))
}
