import { Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { batchRows } from "./batch-rows.js"
import { JsonColumn, jsonDocument, jsonParam } from "./rows.js"

/** A camelCase field name as its snake_case column (`storeId` → `store_id`), at the type level. */
export type SnakeCase<K extends string, Done extends string = ""> = K extends `${infer Head}${infer Tail}`
  ? SnakeCase<Tail, `${Done}${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}`>
  : Done

/** Each field's column name. */
export type SnakeKeys<F> = { readonly [K in keyof F]: K extends string ? SnakeCase<K> : K }

/** A camelCase field name as its snake_case column (`storeId` → `store_id`). */
export const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

const snakeKeysOf = <F extends object>(fields: F): SnakeKeys<F> =>
  Object.fromEntries(Object.keys(fields).map((key) => [key, snakeCase(key)])) as SnakeKeys<F>

/**
 * The schema of a row whose columns are the snake_case spellings of the fields' names: it decodes
 * `{ store_id: 1 }` as `{ storeId: 1 }`. For a query's own result shape; a table is described with
 * {@link table}.
 */
export const snakeStruct = <const F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields).pipe(Schema.encodeKeys(snakeKeysOf(fields)))

/**
 * One column of a table: the schema its value decodes by, its type in a batch's column definition
 * list (storage/batch-rows.ts), and how a value is written when it is not written as it is.
 */
export interface Column<S extends Schema.Top = Schema.Top> {
  readonly schema: S
  readonly sqlType: string
  /** The cast that reads the column back out of a batch's relation (`jsonb` for a json member). */
  readonly cast?: string | undefined
  /** The value as a batch's JSON document carries it (a Date travels as its `toJSON` text). */
  toJson?(value: S["Type"]): unknown
  /** The value as a statement binds it (`sql.insert`). */
  toParam?(value: S["Type"]): unknown
}

/** A column whose value is written as it is. */
export const column = <S extends Schema.Top>(schema: S, sqlType: string): Column<S> => ({ schema, sqlType })

/**
 * A `json`/`jsonb` column holding `document`: a batch carries the document as a JSON value, a
 * statement binds it as JSON text (storage/rows.ts).
 */
export const jsonColumn = <A>(document: Schema.Codec<A, unknown>) => {
  const schema = JsonColumn(document)
  return {
    schema,
    sqlType: "json",
    cast: "jsonb",
    toJson: (value: A): unknown => jsonDocument(document, value),
    toParam: (value: A): unknown => jsonParam(document, value)
  } satisfies Column<typeof schema>
}

/** A nullable {@link jsonColumn}. */
export const nullableJsonColumn = <A>(document: Schema.Codec<A, unknown>) => {
  const schema = Schema.NullOr(JsonColumn(document))
  return {
    schema,
    sqlType: "json",
    cast: "jsonb",
    toJson: (value: A | null): unknown => value === null ? null : jsonDocument(document, value),
    toParam: (value: A | null): unknown => value === null ? null : jsonParam(document, value)
  } satisfies Column<typeof schema>
}

/** A table's columns, keyed by their camelCase field names. */
export type Columns = { readonly [field: string]: Column }

type FieldsOf<C extends Columns> = { readonly [K in keyof C]: C[K]["schema"] }

/** A row of the table as the service sees it (camelCase, decoded). */
export type RowOf<C extends Columns> = { readonly [K in keyof C]: C[K]["schema"]["Type"] }

/** A table described once, column by column, and everything derived from the description. */
export interface Table<C extends Columns> {
  readonly name: string
  /** Decodes a selected row (snake_case columns) into its camelCase fields. */
  readonly row: ReturnType<typeof snakeStruct<FieldsOf<C>>>
  /** Each field's column name. */
  readonly snake: SnakeKeys<C>
  /** Every column, in the description's order: the SELECT and INSERT column list. */
  readonly columns: string
  /** {@link columns}, each qualified by `alias` (`p.id, p.store_id, …`). */
  readonly columnsOf: (alias: string) => string
  /** The fields given, as `sql.insert` binds them (snake_case keys, documents as JSON text). */
  readonly toParams: (values: Partial<RowOf<C>>) => Record<string, unknown>
  /** A whole row as a batch's JSON document carries it (storage/batch-rows.ts). */
  readonly toBatchRow: (values: RowOf<C>) => Record<string, unknown>
  /**
   * `INSERT INTO name (columns) SELECT … FROM batch`: the rows written by one statement, each
   * column read back out of the batch's relation with its cast.
   */
  readonly insertBatch: (sql: SqlClient.SqlClient, rows: ReadonlyArray<RowOf<C>>) => Statement.Fragment
}

interface Entry {
  readonly field: string
  readonly name: string
  readonly column: Column
}

/**
 * Describes a table once: each column's field name (its column is the snake_case spelling), its
 * schema, its SQL type and its encoding. The lists and statements are derived here, once, when the
 * module loads; per row only the values are mapped.
 */
export const table = <const C extends Columns>(name: string, columns: C): Table<C> => {
  const entries: ReadonlyArray<Entry> = Object.entries(columns).map(([field, column]) => ({
    field,
    name: snakeCase(field),
    column
  }))
  const fields = Object.fromEntries(entries.map(({ column, field }) => [field, column.schema])) as FieldsOf<C>
  const list = entries.map((entry) => entry.name).join(", ")
  const aliased = new Map<string, string>()
  const definitions = entries.map((entry) => `${entry.name} ${entry.column.sqlType}`).join(", ")
  const readBack = entries.map((entry) =>
    entry.column.cast === undefined ? entry.name : `${entry.name}::${entry.column.cast}`
  ).join(", ")
  const insertHead = `INSERT INTO ${name} (${list}) SELECT ${readBack} FROM `
  const toBatchRow = (values: RowOf<C>): Record<string, unknown> => {
    const row: Record<string, unknown> = {}
    const source: Readonly<Record<string, unknown>> = values
    for (const { column, field, name } of entries) {
      const value = source[field]
      row[name] = column.toJson === undefined ? value : column.toJson(value)
    }
    return row
  }
  return {
    name,
    row: snakeStruct(fields),
    snake: snakeKeysOf(columns),
    columns: list,
    columnsOf: (alias) => {
      let qualified = aliased.get(alias)
      if (qualified === undefined) {
        qualified = entries.map((entry) => `${alias}.${entry.name}`).join(", ")
        aliased.set(alias, qualified)
      }
      return qualified
    },
    toParams: (values) => {
      const params: Record<string, unknown> = {}
      const source: Readonly<Record<string, unknown>> = values
      for (const { column, field, name } of entries) {
        if (!(field in source)) continue
        const value = source[field]
        params[name] = column.toParam === undefined ? value : column.toParam(value)
      }
      return params
    },
    toBatchRow,
    insertBatch: (sql, rows) =>
      sql`${sql.unsafe(insertHead)}${batchRows(sql, rows.map(toBatchRow), definitions)} AS r`
  }
}
