import type { SqlClient, Statement } from "effect/sql"

/**
 * A batch's rows as a relation for one statement: the rows travel as one JSON document (one
 * parameter, so statements differ only by the batch's size), read back with
 * `json_to_recordset` as `columns` (a column definition list such as `id integer, name text`).
 *
 * The LIMIT, the batch's own size, is for the planner: it takes a set-returning function for 100
 * rows, and joining 100 rows it prefers scanning a whole table (every idempotency key, every
 * product) to looking each row up by index. Told the true count, it looks them up.
 */
export const batchRows = (
  sql: SqlClient.SqlClient,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  columns: string
): Statement.Fragment =>
  sql`(SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(${sql.unsafe(columns)}) LIMIT ${
    sql.unsafe(String(Math.max(1, rows.length)))
  })`
