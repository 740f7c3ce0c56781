import { toLegacyTimestamp } from "../orders/webhook-payloads.js"

/** One answer of a submitted form, as the storefront sent it. */
export interface FormResponse {
  readonly field_id: string | number
  readonly name: string
  /** Observed: `EMAIL`; others are the form builder's input types (`TEXT`, `TEXTAREA`, …). */
  readonly input_type: string
  readonly value: string
}

/** A stored form submission (a quote) and the customiser whose form it came from. */
export interface FormSubmissionRecord {
  /** Per-Store sequence number, from 1. */
  readonly submissionNumber: number
  /** The form's id; the customiser's built-in form when the storefront sent none. */
  readonly formId: number
  readonly customiser: {
    readonly id: number
    readonly name: string
    readonly createdAt: Date
    readonly updatedAt: Date
  }
  readonly responses: ReadonlyArray<FormResponse>
  readonly createdAt: Date
}

/** Body of a `form:submitted` delivery (docs/webhooks.md, quotes). */
export interface FormSubmittedPayload {
  readonly form_submission: {
    readonly submission_number: number
    readonly type: "custom_form_submission"
    readonly form: {
      readonly form_id: number
      readonly customiser_id: number
      readonly label: string
      readonly description: string
      readonly email: string
      readonly subject: string
      readonly created_at: string
      readonly updated_at: string
    }
    readonly responses: ReadonlyArray<{
      readonly field_id: string | number
      readonly value: string
      readonly name: string
      readonly input_type: string
    }>
    readonly created_at: string
  }
}

/**
 * Builds the `form:submitted` body. The service keeps no separate form designer, so the form is
 * the customiser's: its name is the label, its timestamps the form's, and the texts the form
 * designer would hold (description, notification email, subject) are empty strings, never null,
 * so receivers typing them as strings keep working. The payload carries no stable id, as documented (docs/webhooks.md):
 * consumers deduplicate on the quote id of `GET /api/v3/quotes`.
 */
export const formSubmittedPayload = (submission: FormSubmissionRecord): FormSubmittedPayload => ({
  form_submission: {
    submission_number: submission.submissionNumber,
    type: "custom_form_submission",
    form: {
      form_id: submission.formId,
      customiser_id: submission.customiser.id,
      label: submission.customiser.name,
      description: "",
      email: "",
      subject: "",
      created_at: toLegacyTimestamp(submission.customiser.createdAt),
      updated_at: toLegacyTimestamp(submission.customiser.updatedAt)
    },
    responses: submission.responses.map((r) => ({
      field_id: r.field_id,
      value: r.value,
      name: r.name,
      input_type: r.input_type
    })),
    created_at: toLegacyTimestamp(submission.createdAt)
  }
})
