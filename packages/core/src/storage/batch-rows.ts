import type { SqlClient, Statement } from "effect/sql"

/**
 * A batch's rows as a relation for one statement: the rows travel as one JSON document, read back
 * with `json_to_recordset` as `columns` (a column definition list such as `id integer, name text`).
 * A document (a json column's value, an event's body) is a member's JSON value, not a string of
 * JSON: it is neither escaped into a string nor parsed twice by the database, and its column in the
 * definition list is `json`, whose value keeps the text as written: `::jsonb` for the document,
 * `::text` for exactly what `JSON.stringify` writes for the value alone (what a webhook is signed
 * over). The whole document is one `JSON.stringify`, which outruns joining members by hand.
 *
 * The LIMIT, the batch's own size, is for the planner: it takes a set-returning function for 100
 * rows, and joining 100 rows it prefers scanning a whole table (every idempotency key, every
 * product) to looking each row up by index. The size is a parameter, not part of the text, so a
 * statement has one text whatever its batch's size: a connection prepares it once, and the server
 * soon keeps one generic plan for it (which takes a LIMIT it cannot see as a tenth of the rows)
 * instead of planning every execution. With the size in the text, each size was a statement of
 * its own, more than a connection's prepared statement cache holds, so PostgreSQL planned nearly
 * every batch anew (docs/group-commit.md).
 */
export const batchRows = (
  sql: SqlClient.SqlClient,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  columns: string
): Statement.Fragment =>
  sql`(SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(${sql.unsafe(columns)}) LIMIT ${Math.max(1, rows.length)})`
