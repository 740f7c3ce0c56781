import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { CustomiserRecord } from "../pricing/customisers.js"
import { type FormResponse, formSubmittedPayload } from "../../domain/webhooks/form-submission.js"
import { decodeRows, decodeSingleRow, JsonColumn, jsonParam, RowId, RowNumber } from "../../storage/rows.js"
import { Outbox } from "../webhooks/outbox.js"
import { snakeStruct } from "../../storage/table.js"
import type { QuoteRecord } from "../../domain/quotes/quote-record.js"

export type { QuoteRecord } from "../../domain/quotes/quote-record.js"

/** What a shopper submitted. */
export interface FormSubmission {
  /** The form's id; absent means the customiser's built-in form. */
  readonly formId?: number | undefined
  readonly responses: ReadonlyArray<FormResponse>
}

const ResponsesDocument = Schema.Array(Schema.Struct({
  field_id: Schema.Union([Schema.String, Schema.Number]),
  name: Schema.String,
  input_type: Schema.String,
  value: Schema.String
}))

const Row = snakeStruct({
  id: RowId,
  storeId: RowId,
  customiserId: RowId,
  formId: Schema.NullOr(RowId),
  submissionNumber: RowNumber,
  responses: JsonColumn(ResponsesDocument),
  createdAt: Schema.String,
  createdMs: RowNumber
})

const toRecord = ({ createdMs: _, ...record }: typeof Row.Type): QuoteRecord => record

const CounterRow = snakeStruct({ lastNumber: RowNumber })

/** Quotes (form submissions), numbered per Store, each announced as `form:submitted`. */
export class Quotes extends Context.Service<Quotes, {
  /**
   * Stores a submission to a customiser's form and queues `form:submitted` in the same
   * transaction: the quote and its event commit together. The event is recorded only for a Store
   * with a subscriber to it (`Outbox.enqueueIfSubscribed`): the quote already keeps the submission.
   */
  readonly submit: (customiser: CustomiserRecord, submission: FormSubmission) => Effect.Effect<QuoteRecord>
  /** One page of a Store's quotes in id order after `afterId`; fetches `limit` rows. */
  readonly list: (
    storeId: number,
    page: { readonly limit: number; readonly afterId: number | undefined }
  ) => Effect.Effect<ReadonlyArray<QuoteRecord>>
}>()("signcraft/Quotes") {
  static readonly layer = Layer.effect(
    Quotes,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* Outbox
      const columns = sql.unsafe(`
        id, store_id, customiser_id, form_id, submission_number, responses,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
        (extract(epoch FROM created_at) * 1000)::float8 AS created_ms`)
      return Quotes.of({
        submit: (customiser, submission) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const counter = yield* sql`
                INSERT INTO quote_counters (store_id, last_number) VALUES (${customiser.storeId}, 1)
                ON CONFLICT (store_id) DO UPDATE SET last_number = quote_counters.last_number + 1
                RETURNING last_number`
              const submissionNumber = (yield* decodeSingleRow(CounterRow)(counter)).lastNumber
              const rows = yield* sql`
                INSERT INTO quotes ${sql.insert({
                  store_id: customiser.storeId,
                  customiser_id: customiser.id,
                  form_id: submission.formId ?? null,
                  submission_number: submissionNumber,
                  responses: jsonParam(ResponsesDocument, submission.responses)
                })}
                RETURNING ${columns}`
              const row = yield* decodeSingleRow(Row)(rows)
              const quote = toRecord(row)
              yield* outbox.enqueueIfSubscribed(customiser.storeId, "form:submitted", formSubmittedPayload({
                submissionNumber,
                // The previous generation's payload always names a form: the built-in one is the customiser's.
                formId: quote.formId ?? customiser.id,
                customiser: {
                  id: customiser.id,
                  name: customiser.name,
                  createdAt: new Date(customiser.createdAt),
                  updatedAt: new Date(customiser.updatedAt)
                },
                responses: quote.responses,
                createdAt: new Date(row.createdMs)
              }))
              return quote
            })
          ).pipe(Effect.orDie),
        list: (storeId, { limit, afterId }) =>
          sql`
            SELECT ${columns} FROM quotes
            WHERE store_id = ${storeId} ${afterId === undefined ? sql`` : sql`AND id > ${afterId}`}
            ORDER BY id LIMIT ${limit}`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeRows(Row)),
            Effect.map((rows) => rows.map(toRecord))
          )
      })
    })
  )
}
