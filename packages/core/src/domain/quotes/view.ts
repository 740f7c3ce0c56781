import { Schema } from "effect"

// The v3 view of a quote, shared by the HTTP API and the agent tools' output schemas.

/** One answer of a form. */
export const FormResponseSchema = Schema.Struct({
  field_id: Schema.Union([Schema.String, Schema.Int]),
  name: Schema.String,
  input_type: Schema.String,
  value: Schema.String
}).annotate({ identifier: "FormResponse" })

/** A v3 quote: one form submission. `id` is stable: deduplicate `form:submitted` deliveries on it. */
export const QuoteV3 = Schema.Struct({
  object: Schema.Literal("quote"),
  id: Schema.Int,
  customiser_id: Schema.Int,
  form_id: Schema.NullOr(Schema.Int).annotate({
    description: "The form the shopper filled in; null for the customiser's built-in form."
  }),
  submission_number: Schema.Int,
  responses: Schema.Array(FormResponseSchema),
  created_at: Schema.String
}).annotate({ identifier: "Quote" })
