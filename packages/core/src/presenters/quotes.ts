import { formatTimestampV3 } from "../domain/timestamp.js"
import type { QuoteRecord } from "../services/quotes.js"

/** A quote as v3 shows it. */
export const quoteV3Of = (record: QuoteRecord) => ({
  object: "quote" as const,
  id: record.id,
  customiser_id: record.customiser_id,
  form_id: record.form_id,
  submission_number: record.submission_number,
  responses: record.responses,
  created_at: formatTimestampV3(record.created_at)
})
