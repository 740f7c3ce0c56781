import { Schema } from "effect"

/** ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`), as imports give `created_at`. */
export const IsoTimestamp = Schema.String.check(
  Schema.makeFilter(
    (value: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
    { expected: "an ISO 8601 timestamp with an offset, such as 2026-03-01T12:00:00Z" }
  )
)
