import { Schema } from "effect"
import { FieldErrorSchema } from "../domain/input/field-error.js"
import { PROBLEM_CODES } from "../presenters/failure-table.js"

/** An RFC 9457 problem document, the body of every v3, operator and storefront non-2xx. */
export const ProblemDocument = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Int,
  code: Schema.Literals(PROBLEM_CODES),
  detail: Schema.String,
  request_id: Schema.String,
  errors: Schema.optionalKey(Schema.Array(FieldErrorSchema)),
  retry_after: Schema.optionalKey(Schema.Int),
  required_scopes: Schema.optionalKey(Schema.Array(Schema.String)),
  granted_scopes: Schema.optionalKey(Schema.Array(Schema.String))
}).annotate({ identifier: "Problem" })

/** The previous generation's error body: a message and the faults keyed by field. */
export const LegacyErrorDocument = Schema.Struct({
  message: Schema.String,
  errors: Schema.Record(Schema.String, Schema.Array(Schema.String))
}).annotate({ identifier: "LegacyError" })

/** `links` of the v3 envelope. */
export const Links = Schema.Struct({
  self: Schema.String,
  documentation: Schema.String
})

/** `meta` of the v3 envelope. */
export const Meta = Schema.Struct({
  api_version: Schema.Literal("v3"),
  request_id: Schema.String
})

/** The v3 success envelope around one resource. */
export const Envelope = <S extends Schema.Top>(data: S) =>
  Schema.Struct({ data, links: Links, meta: Meta })

/** The v3 collection envelope, with cursor paging. */
export const CollectionEnvelope = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item),
    links: Schema.Struct({
      self: Schema.String,
      documentation: Schema.String,
      next: Schema.optionalKey(Schema.String)
    }),
    pagination: Schema.Struct({ has_more: Schema.Boolean }),
    meta: Meta
  })
