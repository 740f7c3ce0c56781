import { Effect } from "effect"

/** The single row a statement such as `INSERT … RETURNING` must produce; its absence is a defect. */
export const singleRow = <A>(rows: ReadonlyArray<A>): Effect.Effect<A> => {
  const row = rows[0]
  return row === undefined ? Effect.die(new Error("statement returned no row")) : Effect.succeed(row)
}
