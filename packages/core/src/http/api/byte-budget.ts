import { Schema } from "effect"

/**
 * What one anonymous storefront write (a form submission, a finished design) may add to the
 * database: the per-field caps alone would let one write store far more than any shopper sends,
 * and the storefront has no credential to hold to account.
 */
export const STOREFRONT_STORED_BYTES = 64 * 1024

/**
 * What the write may hold, as the JSON it is stored as: the stored budget less what a row and its
 * out-of-line (TOAST) chunks add around the document.
 */
export const STOREFRONT_WRITE_BYTES = 60 * 1024

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

/**
 * `schema`, refusing a value whose JSON takes more than `max` bytes of UTF-8. The refusal is a
 * value fault at the schema's own place (the whole body for a request's root), never a framing one.
 */
export const withinByteBudget = <S extends Schema.Top>(schema: S, max: number) =>
  schema.check(
    Schema.makeFilter((value: S["Type"]) =>
      bytesOf(value) <= max ||
      { path: [], issue: `Must take at most ${max} bytes in all, in UTF-8.` }
    )
  )
