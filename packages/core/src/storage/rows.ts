import { Effect } from "effect"

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

/**
 * The value of a `json` column: drivers hand it back parsed (PostgreSQL) or as text (some
 * configurations); both are accepted.
 */
export const jsonColumn = <A>(value: A | string): A => (typeof value === "string" ? (JSON.parse(value) as A) : value)
