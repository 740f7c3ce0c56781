import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { PublicAccess, RequestFailures } from "../middleware/definitions.js"
import { ResourceIdParam } from "../resource-id.js"
import { STOREFRONT_WRITE_BYTES, withinByteBudget } from "./byte-budget.js"

/**
 * Caps of an anonymous submission: each one is stored and fans out to the Store's webhooks, so no
 * shopper may send an unbounded one. The responses together are also held to
 * `STOREFRONT_WRITE_BYTES` (`./byte-budget.ts`).
 */
export const FORM_SUBMISSION_CAPS = { responses: 100, value: 10_000, name: 200, fieldId: 100, inputType: 50 } as const

const capped = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** One answer of a submitted form, within the storefront's caps. */
export const FormResponseInput = Schema.Struct({
  field_id: Schema.Union([capped(FORM_SUBMISSION_CAPS.fieldId), Schema.Int]),
  name: capped(FORM_SUBMISSION_CAPS.name),
  input_type: capped(FORM_SUBMISSION_CAPS.inputType),
  value: capped(FORM_SUBMISSION_CAPS.value)
}).annotate({ identifier: "FormResponseInput" })

/** Storefront (no credential, per-IP quota): form submissions of a customiser. */
export class StorefrontFormsApi extends HttpApiGroup.make("storefrontForms")
  .add(
    HttpApiEndpoint.post("submit", "/customisers/:customiser_id/form-submissions", {
      params: { customiser_id: ResourceIdParam("customiser") },
      payload: Schema.Struct({
        form_id: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0))),
        responses: withinByteBudget(
          Schema.Array(FormResponseInput).check(Schema.isMinLength(1), Schema.isMaxLength(FORM_SUBMISSION_CAPS.responses)),
          STOREFRONT_WRITE_BYTES
        )
      }),
      success: Schema.Struct({ quote_id: Schema.Int }).pipe(HttpApiSchema.status(201))
    }).annotateMerge(OpenApi.annotations({
      summary: "Submit a customiser's form",
      description: "Stores the submission as a quote (GET /api/v3/quotes) and queues form:submitted to the Store's subscriptions."
    }))
  )
  .middleware(RequestFailures)
  .middleware(PublicAccess)
  .prefix("/storefront/v1")
  .annotate(OpenApi.Title, "Storefront forms")
{}
