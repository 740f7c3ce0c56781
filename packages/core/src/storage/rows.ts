import { Effect, Option, Schema, SchemaTransformation } from "effect"
import { TimestampFromStored } from "../domain/timestamp.js"

/** The single row a statement such as `INSERT … RETURNING` must produce; its absence is a defect. */
export const singleRow = <A>(rows: ReadonlyArray<A>): Effect.Effect<A> => {
  const row = rows[0]
  return row === undefined ? Effect.die(new Error("statement returned no row")) : Effect.succeed(row)
}

const MAX_INTEGER_ID = 2_147_483_647

/**
 * Whether an id fits the `integer` identity columns. Larger ids name nothing (they answer 404)
 * and must not reach the database, which would refuse them with an error.
 */
export const isStorableId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1 && id <= MAX_INTEGER_ID

/** Whether an id fits the `bigint` identity columns (events, deliveries): any positive safe integer. */
export const isStorableBigId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1

const toNumber = SchemaTransformation.transform<number, number | string | bigint>({
  decode: (value) => Number(value),
  encode: (value) => value
})

/**
 * A numeric column (integer, bigint, `count(*)`, `sum(…)`) as a number: the driver hands int8 and
 * numeric back as text, int4 as a number, and some paths as a bigint; all decode alike.
 */
export const RowNumber = Schema.Union([Schema.Number, Schema.String, Schema.BigInt]).pipe(
  Schema.decodeTo(Schema.Finite, toNumber)
)

/** An id from an identity or foreign-key column (int4 or int8), as a number. */
export const RowId = Schema.Union([Schema.Number, Schema.String, Schema.BigInt]).pipe(
  Schema.decodeTo(Schema.Int, toNumber)
)

/** A `timestamptz` column as a Date, through the one timestamp codec (Date or text alike). */
export const RowTimestamp = TimestampFromStored

/**
 * A `json`/`jsonb` column holding `schema`: decodes the parsed value the driver hands back, or its
 * text; encodes to JSON text, the form statements bind it in (PostgreSQL casts it to the column).
 */
export const JsonColumn = <S extends Schema.Top>(schema: S) =>
  Schema.Union([Schema.fromJsonString(schema), schema])

/**
 * A document the service itself wrote into a json column and reads back whole: its shape is the
 * TypeScript type the writer was checked against, so decoding only asserts it is a JSON value.
 */
export const StoredDocument = <A>() =>
  Schema.declare<A>((value): value is A => value !== null && value !== undefined && typeof value !== "function")

// One compiled encoder per document schema: compiling it again for every statement costs more
// than the encoding itself.
const documentEncoders = new WeakMap<Schema.Top, (value: unknown) => unknown>()

/**
 * Encodes a document for a json column to its JSON value (what `JSON.stringify` writes out): the
 * form a batch's rows carry it in (storage/batch-rows.ts).
 */
export const jsonDocument = <A>(schema: Schema.Codec<A, unknown>, value: A): unknown => {
  let encode = documentEncoders.get(schema)
  if (encode === undefined) {
    encode = Schema.encodeSync(schema as Schema.Codec<unknown, unknown>)
    documentEncoders.set(schema, encode)
  }
  return encode(value)
}

/** Encodes a document for a json column to the JSON text a statement binds. */
export const jsonParam = <A>(schema: Schema.Codec<A, unknown>, value: A): string => {
  const text: string | undefined = JSON.stringify(jsonDocument(schema, value))
  if (text === undefined) throw new TypeError("The document has no JSON form")
  return text
}

/**
 * Decodes rows through a row schema; a row the schema refuses is a defect (the database and the
 * schema disagree), never a client error.
 */
export const decodeRows = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<S["Type"]>> => Effect.orDie(decode(rows))
}

/** Decodes the single row a statement must produce (see {@link singleRow}). */
export const decodeSingleRow = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const decode = decodeRows(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<S["Type"]> =>
    Effect.flatMap(decode(rows), singleRow)
}

/** Decodes the first row, if any, through a row schema (see {@link decodeRows}). */
export const decodeFirstRow = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const decode = decodeRows(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<S["Type"]>> =>
    Effect.map(decode(rows.slice(0, 1)), (decoded) => Option.fromNullishOr(decoded[0]))
}

/** The row of `INSERT … RETURNING id`. */
export const InsertedId = Schema.Struct({ id: RowId })
