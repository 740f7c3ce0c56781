import type { SqlClient, Statement } from "effect/sql"

/**
 * A value that is JSON text already (a document a row writes into a json column, an event's
 * body): the batch's document carries it as JSON, not as a string holding JSON, so it is neither
 * escaped here nor parsed twice by the database. Its column in the definition list is `json`, whose
 * value keeps the text as given: cast it `::jsonb` for the document, `::text` for the very text.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

const hasJsonText = (row: Readonly<Record<string, unknown>>): boolean => {
  for (const name in row) if (row[name] instanceof JsonText) return true
  return false
}

// JSON.stringify's text for the rows, with each JsonText's text in place of its value.
const documentOf = (rows: ReadonlyArray<Readonly<Record<string, unknown>>>): string => {
  if (!rows.some(hasJsonText)) return JSON.stringify(rows)
  let document = "["
  rows.forEach((row, index) => {
    let members = ""
    for (const name in row) {
      const value = row[name]
      const text = value instanceof JsonText ? value.text : JSON.stringify(value)
      // As JSON.stringify does, a member without a JSON value (undefined) is left out.
      if (text !== undefined) members += `${members === "" ? "" : ","}${JSON.stringify(name)}:${text}`
    }
    document += `${index === 0 ? "" : ","}{${members}}`
  })
  return `${document}]`
}

/**
 * A batch's rows as a relation for one statement: the rows travel as one JSON document, read back
 * with `json_to_recordset` as `columns` (a column definition list such as `id integer, name text`).
 * A {@link JsonText} value travels as the JSON it is.
 *
 * The LIMIT, the batch's own size, is for the planner: it takes a set-returning function for 100
 * rows, and joining 100 rows it prefers scanning a whole table (every idempotency key, every
 * product) to looking each row up by index. The size is a parameter, not part of the text, so a
 * statement has one text whatever its batch's size: a connection prepares it once, and the server
 * soon keeps one generic plan for it (which takes a LIMIT it cannot see as a tenth of the rows)
 * instead of planning every execution. With the size in the text, each size was a statement of
 * its own, more than a connection's prepared statement cache holds, and PostgreSQL's CPU per
 * idempotent order write was twice what it is now.
 */
export const batchRows = (
  sql: SqlClient.SqlClient,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  columns: string
): Statement.Fragment =>
  sql`(SELECT * FROM json_to_recordset(${documentOf(rows)}::json) AS r(${sql.unsafe(columns)}) LIMIT ${Math.max(1, rows.length)})`
