import { formatTimestampV3 } from "../domain/timestamp.js"
import type { QuoteRecord } from "../domain/quotes/quote-record.js"

/** A quote as v3 shows it. */
export const quoteV3Of = (record: QuoteRecord) => ({
  object: "quote" as const,
  id: record.id,
  customiser_id: record.customiserId,
  form_id: record.formId,
  submission_number: record.submissionNumber,
  responses: record.responses,
  created_at: formatTimestampV3(record.createdAt)
})
