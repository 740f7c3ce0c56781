import type { FormResponse } from "../webhooks/form-submission.js"

/** A stored form submission, read as a v3 quote. */
export interface QuoteRecord {
  readonly id: number
  readonly storeId: number
  readonly customiserId: number
  /** The form the shopper filled in; null for the customiser's built-in form. */
  readonly formId: number | null
  readonly submissionNumber: number
  readonly responses: ReadonlyArray<FormResponse>
  readonly createdAt: string
}
